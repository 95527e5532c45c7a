/** One bucket of a vscsiStats histogram, as vscsiStats prints it. */
export interface VscsiBucket {
  /** Axis label: the upper bound ("1", "−500"), "≤ −500000" for the first bucket, "> 500000" for the open last one. */
  label: string;
  /** The values the bucket holds, for tooltips and tables: "(−1000, −500]", "≤ −500000", "> 500000". */
  range: string;
}

/** A bound with a true minus sign, without grouping (as vscsiStats prints it): -500000 -> "−500000". */
const signed = (n: number) => (n < 0 ? `−${-n}` : String(n));

/**
 * The buckets of a vscsiStats family from its upper bounds (inclusive; docs/workload.md): bucket
 * i holds (bounds[i−1], bounds[i]], the first everything up to bounds[0], and one more open
 * bucket everything above the last bound — bounds.length + 1 buckets, the API's count order.
 */
export function vscsiBuckets(bounds: readonly number[]): VscsiBucket[] {
  const buckets = bounds.map((b, i) =>
    i === 0 ? { label: `≤ ${signed(b)}`, range: `≤ ${signed(b)}` } : { label: signed(b), range: `(${signed(bounds[i - 1])}, ${signed(b)}]` },
  );
  const top = `> ${signed(bounds.at(-1) ?? 0)}`;
  return [...buckets, { label: top, range: top }];
}

/** Bytes per sector of the alignment histogram (tierwise.io.alignment counts 512-byte sectors). */
const SECTOR_BYTES = 512;

/**
 * The buckets of the alignment histogram (`tierwise.io.alignment`, docs/workload.md "Block
 * alignment") from its bounds (0..6 sectors; the open bucket above is sector 7) as the byte offset
 * into its 4 KiB block a command starts at: bucket k = k × 512 bytes, 0 = aligned.
 */
export function startSectorBuckets(bounds: readonly number[]): VscsiBucket[] {
  return [...bounds, (bounds.at(-1) ?? -1) + 1].map((k) => ({
    label: String(k * SECTOR_BYTES),
    range: k === 0 ? "sector 0: aligned" : `sector ${k}: ${k * SECTOR_BYTES} bytes in`,
  }));
}
