import { z } from 'zod';

/**
 * A point in time of a query or body: RFC 3339 with an offset (the OpenAPI format date-time),
 * normalised to UTC ISO 8601. Normalising in JavaScript first means PostgreSQL never sees an
 * offset it refuses (it allows ±15:59; RFC 3339's grammar allows ±23:59).
 */
export const timestampSchema = z.iso
  .datetime({ offset: true })
  .transform((text) => new Date(text))
  .refine((date) => !Number.isNaN(date.getTime()), 'must be a valid RFC 3339 time, e.g. 2026-11-20T12:00:00Z')
  .transform((date) => date.toISOString());
