import type { TimeLine } from "@/components/charts/TimeSeriesChart";
import { PALETTE, SERIES_COLOURS } from "@/components/charts/echarts";
import type { SeriesPoint, SeriesSource } from "@/lib/analytics-schemas";
import { sizeBinLabel } from "@/lib/block-size-bins";

/** The drill-down's breakdowns (issue 7): where I/O was served, reads vs writes, I/O size, a custom selection. */
export const BREAKDOWNS = ["storage", "direction", "size", "custom"] as const;
export type Breakdown = (typeof BREAKDOWNS)[number];
export const BREAKDOWN_LABELS: Record<Breakdown, string> = {
  storage: "Storage type",
  direction: "Read/write",
  size: "Block size",
  custom: "Custom",
};

/** The three charts of one breakdown: IOPS, throughput and latency lines. */
export interface BreakdownLines {
  iops: TimeLine[];
  throughput: TimeLine[];
  latency: TimeLine[];
  /** Why a chart has fewer lines than the breakdown names (e.g. peer not rolled up). */
  notes: string[];
}

const pick = (points: SeriesPoint[], f: (p: SeriesPoint) => number | null | undefined) => points.map((p) => f(p) ?? null);

/** The storage types of the "storage" breakdown, in drawing order, with a colour each (Okabe–Ito). */
const SOURCES = [
  { key: "vm_observed", name: "VM observed", color: SERIES_COLOURS[0] },
  { key: "cache", name: "Cache", color: SERIES_COLOURS[2] },
  { key: "peer", name: "Peer", color: SERIES_COLOURS[3] },
  { key: "datastore", name: "Datastore", color: SERIES_COLOURS[5] },
] as const;

/**
 * IOPS, throughput and latency (p50, p99 dashed) per storage type. Sources overlap (a hit counts at
 * VM observed and cache; a write-back write at cache and peer), so lines are not stacked. A source
 * no point carries is left out and named in the notes.
 */
function storageLines(points: SeriesPoint[]): BreakdownLines {
  const present = SOURCES.filter((s) => points.some((p) => p.sources[s.key] !== null));
  const line = (s: (typeof SOURCES)[number], name: string, f: (x: SeriesSource) => number | null | undefined, dashed = false): TimeLine => ({
    name,
    values: pick(points, (p) => {
      const x = p.sources[s.key];
      return x ? f(x) : null;
    }),
    color: s.color,
    dashed,
  });
  const missing = SOURCES.filter((s) => !present.includes(s)).map((s) => s.name);
  return {
    iops: present.map((s) => line(s, s.name, (x) => x.iops)),
    throughput: present.map((s) => line(s, s.name, (x) => x.bytes_per_s)),
    latency: present.flatMap((s) => [line(s, `${s.name} p50`, (x) => x.latency?.p50_us), line(s, `${s.name} p99`, (x) => x.latency?.p99_us, true)]),
    notes: missing.length > 0 ? [`Not in this range: ${missing.join(", ")} (peer needs write-back with WB+n replicas).`] : [],
  };
}

/** Lines of each chart for a breakdown; `sizeBins` are the bins present (ascending). */
export function breakdownLines(points: SeriesPoint[], breakdown: Breakdown, sizeBins: string[]): BreakdownLines {
  const percentiles = (f: (p: SeriesPoint) => { p50_us: number; p95_us: number; p99_us: number } | null, prefix = ""): TimeLine[] => [
    { name: `${prefix}p50`, values: pick(points, (p) => f(p)?.p50_us), color: SERIES_COLOURS[2] },
    { name: `${prefix}p95`, values: pick(points, (p) => f(p)?.p95_us), color: SERIES_COLOURS[1], dashed: true },
    { name: `${prefix}p99`, values: pick(points, (p) => f(p)?.p99_us), color: SERIES_COLOURS[5] },
  ];
  switch (breakdown) {
    case "storage":
      return storageLines(points);
    case "direction":
      return {
        iops: [
          { name: "Read", values: pick(points, (p) => p.read_iops), color: PALETTE.read, area: true, stack: "ops" },
          { name: "Write", values: pick(points, (p) => p.write_iops), color: PALETTE.write, area: true, stack: "ops" },
        ],
        throughput: [
          { name: "Read", values: pick(points, (p) => p.read_bytes_per_s), color: PALETTE.read, area: true, stack: "bytes" },
          { name: "Write", values: pick(points, (p) => p.write_bytes_per_s), color: PALETTE.write, area: true, stack: "bytes" },
        ],
        latency: [
          { name: "Read p99", values: pick(points, (p) => p.read_latency?.p99_us), color: PALETTE.read },
          { name: "Write p99", values: pick(points, (p) => p.write_latency?.p99_us), color: PALETTE.write },
          { name: "Read p50", values: pick(points, (p) => p.read_latency?.p50_us), color: PALETTE.read, dashed: true },
          { name: "Write p50", values: pick(points, (p) => p.write_latency?.p50_us), color: PALETTE.write, dashed: true },
        ],
        notes: [],
      };
    case "size": {
      const cell = (p: SeriesPoint, bin: string) => p.sizes.find((s) => s.direction === "all" && s.size_bin === bin);
      return {
        iops: sizeBins.map((bin, i) => ({ name: sizeBinLabel(bin), values: pick(points, (p) => cell(p, bin)?.ops_per_s ?? 0), color: SERIES_COLOURS[i % 8], area: true, stack: "ops" })),
        throughput: [],
        latency: sizeBins.map((bin, i) => ({ name: `${sizeBinLabel(bin)} p99`, values: pick(points, (p) => cell(p, bin)?.p99_us), color: SERIES_COLOURS[i % 8] })),
        notes: ["Throughput per block size: the rollups count I/Os per size bin, not bytes."],
      };
    }
    case "custom":
      return {
        iops: [
          { name: "All I/O", values: pick(points, (p) => p.read_iops + p.write_iops), color: PALETTE.axis, dashed: true },
          { name: "Selection", values: pick(points, (p) => p.selection?.ops_per_s ?? 0), color: SERIES_COLOURS[3] },
        ],
        throughput: [],
        latency: percentiles((p) => p.selection, "Selection "),
        notes: [],
      };
  }
}
