import { PortalError } from "./errors";

/** The range picker's presets, seconds. */
export const PRESETS = { "1h": 3600, "6h": 6 * 3600, "24h": 86400, "7d": 7 * 86400, "30d": 30 * 86400 } as const;
export type Preset = keyof typeof PRESETS;

/** A chart range from the URL: a preset ending now (live) or a fixed from/to. */
export interface TimeRange {
  key: Preset | "custom";
  from: Date;
  to: Date;
  /** Ends now and is at most a day long: the page refreshes itself (live updates). */
  live: boolean;
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * Reads `range` (a preset, default `fallback`) or `from` and `to` (ISO 8601) from the query.
 * @throws PortalError bad_request naming the parameter when a value is malformed or from >= to.
 */
export function parseRange(query: Record<string, string | string[] | undefined>, fallback: Preset = "24h", now = new Date()): TimeRange {
  const from = first(query.from);
  const to = first(query.to);
  if (from || to) {
    const f = Date.parse(from ?? "");
    const t = to ? Date.parse(to) : now.getTime();
    if (Number.isNaN(f)) throw new PortalError("bad_request", `from must be a date and time (ISO 8601), got "${from ?? ""}".`);
    if (Number.isNaN(t)) throw new PortalError("bad_request", `to must be a date and time (ISO 8601), got "${to}".`);
    if (f >= t) throw new PortalError("bad_request", "from must be before to.");
    return { key: "custom", from: new Date(f), to: new Date(t), live: false };
  }
  const key = first(query.range) ?? fallback;
  if (!(key in PRESETS)) throw new PortalError("bad_request", `range must be one of ${Object.keys(PRESETS).join(", ")}, got "${key}".`);
  const seconds = PRESETS[key as Preset];
  return { key: key as Preset, from: new Date(now.getTime() - seconds * 1000), to: now, live: seconds <= 86400 };
}

/** The query string of a range (for links that keep it). */
export function rangeQuery(range: TimeRange): Record<string, string> {
  return range.key === "custom" ? { from: range.from.toISOString(), to: range.to.toISOString() } : { range: range.key };
}
