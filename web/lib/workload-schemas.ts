import { z } from "zod";

/**
 * Zod schema of GET /v1/volumes/:volumeId/workload (services/api/src/workload, docs/workload.md):
 * a volume's vscsiStats histograms over a period. Seek distances in 512-byte sectors (signed),
 * outstanding I/Os in I/Os, interarrival times in µs; shares 0..1.
 */

const Counts = z.array(z.number().nonnegative());

/**
 * One vscsiStats family: its bucket upper bounds (inclusive; one more open bucket above the last)
 * and the merged bucket counts per direction, null where no window reported that direction.
 */
const WorkloadHistogram = z.object({
  bounds: z.array(z.number()),
  all: Counts.nullable(),
  read: Counts.nullable(),
  write: Counts.nullable(),
});

/** GET /v1/volumes/:volumeId/workload. */
export const Workload = z.object({
  volume_id: z.string(),
  from: z.iso.datetime({ offset: true }),
  to: z.iso.datetime({ offset: true }),
  /** Rollup resolution read: 10s, 1m, 1h or 1d. */
  resolution: z.string(),
  /** Rollup windows of the period that had histograms. */
  windows: z.number(),
  seek_distance: WorkloadHistogram,
  /** From the closest of the previous 16 commands: `all` only. */
  seek_distance_closest: WorkloadHistogram,
  outstanding: WorkloadHistogram,
  interarrival_us: WorkloadHistogram,
  /** Null without seek distances in the period. */
  randomness: z
    .object({
      /** Commands with a previous one. */
      commands: z.number(),
      /** Share of commands at seek distance 1 (they start where the previous one ended). */
      sequential_share: z.number().min(0).max(1),
      /** Share of commands within (−128, 128] sectors (64 KiB) of where the previous one ended. */
      within_128_sectors_share: z.number().min(0).max(1),
    })
    .nullable(),
});
export type Workload = z.infer<typeof Workload>;
