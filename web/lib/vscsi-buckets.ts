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
