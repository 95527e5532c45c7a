import prettyBytes from "pretty-bytes";

/**
 * Display formatting shared by server pages and client charts. A fixed locale (en-US)
 * keeps the server's HTML and the browser's hydration identical. null/undefined -> "—".
 */

const LOCALE = "en-US";
const EMPTY = "—";
const compact = new Intl.NumberFormat(LOCALE, { notation: "compact", maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });
const percent = new Intl.NumberFormat(LOCALE, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });
const dateTime = new Intl.DateTimeFormat(LOCALE, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** Bytes in IEC units (1 KiB = 1024 B), three significant digits: 3489660928 -> "3.25 GiB". */
export function formatBytes(bytes: number | null | undefined): string {
  return bytes == null ? EMPTY : prettyBytes(bytes, { binary: true });
}

/** A ratio in 0..1 as a percentage with one decimal: 0.9234 -> "92.3%". */
export function formatPercent(ratio: number | null | undefined): string {
  return ratio == null ? EMPTY : percent.format(ratio);
}

/** A count in compact form: 12345678 -> "12.3M". */
export function formatCount(count: number | null | undefined): string {
  return count == null ? EMPTY : compact.format(count);
}

/** A count in full with grouping, for titles and tooltips: 12345678 -> "12,345,678". */
export function formatExact(count: number | null | undefined): string {
  return count == null ? EMPTY : whole.format(count);
}

/** I/Os per second: (ops, seconds) -> "1.2K IOPS"; "—" when the span is not positive. */
export function formatIops(ops: number, seconds: number | null): string {
  return seconds == null || seconds <= 0 ? EMPTY : `${compact.format(ops / seconds)} IOPS`;
}

/** A duration in seconds, coarsely: 42 -> "42 s", 2700 -> "45 min", 86400 -> "24 h", 604800 -> "7 d". */
export function formatDuration(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 2 * 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 72 * 3600) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} d`;
}

/** An ISO 8601 timestamp as "Nov 20, 2026, 11:37 PM UTC". */
export function formatTimestamp(iso: string | null | undefined): string {
  return iso == null ? EMPTY : `${dateTime.format(new Date(iso))} UTC`;
}

/** Share of `part` in `part + rest` (0..1), or null when both are zero. */
export function share(part: number, rest: number): number | null {
  return part + rest > 0 ? part / (part + rest) : null;
}

/** A latency in microseconds: 240 -> "240 µs", 1830 -> "1.83 ms", 2500000 -> "2.5 s". */
export function formatLatency(us: number | null | undefined): string {
  if (us == null) return EMPTY;
  if (us < 1000) return `${Number(us.toPrecision(3))} µs`;
  if (us < 1_000_000) return `${Number((us / 1000).toPrecision(3))} ms`;
  return `${Number((us / 1_000_000).toPrecision(3))} s`;
}

/** Bytes per second in IEC units: 1572864 -> "1.5 MiB/s". */
export function formatRate(bytesPerSecond: number | null | undefined): string {
  return bytesPerSecond == null ? EMPTY : `${formatBytes(bytesPerSecond)}/s`;
}

/** A ratio of two sizes, three significant digits: 0.6 -> "0.6×", 12.345 -> "12.3×". */
export function formatRatio(ratio: number | null | undefined): string {
  return ratio == null ? EMPTY : `${Number(ratio.toPrecision(3))}×`;
}

/** CPU seconds per second, two decimals: 1.5 -> "1.50 cores" (1 = one core busy all the time). */
export function formatCores(cores: number | null | undefined): string {
  return cores == null ? EMPTY : `${cores.toFixed(2)} cores`;
}

/** The unit a chart's values are in, and how each is written. */
export type ValueUnit = "iops" | "bytes_per_s" | "us" | "percent" | "bytes" | "ratio";

/** Formats a chart value by its unit (axis labels, tooltips, data tables). */
export function formatValue(value: number | null | undefined, unit: ValueUnit): string {
  if (value == null) return EMPTY;
  switch (unit) {
    case "iops":
      return `${formatCount(value)} IOPS`;
    case "bytes_per_s":
      return formatRate(value);
    case "us":
      return formatLatency(value);
    case "percent":
      return formatPercent(value);
    case "bytes":
      return formatBytes(value);
    case "ratio":
      return formatRatio(value);
  }
}
