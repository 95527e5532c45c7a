import type { Benchmarks } from "./analytics-schemas";
import { formatExact } from "./format";

/** One cohort of GET /v1/benchmarks: tier media × workload class (docs/benchmarks.md). */
export type Cohort = Benchmarks["cohorts"][number];

/** Workload classes in the order the page groups them: read-heavy, mixed, write-heavy (by read share, docs/benchmarks.md). */
export const CLASSES = { "read-heavy": "Read-heavy", mixed: "Mixed", "write-heavy": "Write-heavy" } as const;

/** Tier media of the volumes' current recommendation. */
export const MEDIA = { ram: "RAM tier", nvme: "NVMe tier", none: "no recommendation" } as const;

/** The caller's band among a figure's published quartiles, as shown. */
export const BAND = { below_p25: "below p25", p25_p50: "p25 – p50", p50_p75: "p50 – p75", above_p75: "p75 and above" } as const;

/** A cohort's name: "Read-heavy, NVMe tier". */
export const cohortName = (c: Cohort) => `${CLASSES[c.workload_class]}, ${MEDIA[c.media]}`;

/** "1 volume", "1,522 volumes". */
export const volumeCount = (n: number) => `${formatExact(n)} volume${n === 1 ? "" : "s"}`;

/** Cohorts in the page's order: by workload class (CLASSES), the API's order within one. */
export const byClass = (cohorts: Cohort[]) => {
  const order = Object.keys(CLASSES);
  return [...cohorts].sort((x, y) => order.indexOf(x.workload_class) - order.indexOf(y.workload_class));
};
