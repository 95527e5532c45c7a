import { BandChart, type BandRow } from "@/components/charts/BandChart";
import { sizeBinLabel } from "@/lib/block-size-bins";
import { BAND, cohortName, MEDIA, volumeCount, type Cohort } from "@/lib/benchmarks";

type Standing = Cohort["read_share"];

/** A scalar figure's row (the cohort's p25–p75 with its median, the caller's value), or null when the cohort publishes none. */
function scalarRow(name: string, s: Standing): BandRow | null {
  if (s.cohort_p25 == null || s.cohort_p50 == null || s.cohort_p75 == null) return null;
  return { name, low: s.cohort_p25, mid: s.cohort_p50, high: s.cohort_p75, you: [s.own] };
}

/** A latency row (the cohort's p50–p99 with its p95, the caller's p50 and p99, µs), or null when the bin is not published. */
function latencyRow(l: Cohort["latency"][number]): BandRow | null {
  if (l.cohort_p50_us == null || l.cohort_p95_us == null || l.cohort_p99_us == null) return null;
  return { name: `${l.direction === "read" ? "Read" : "Write"} ${sizeBinLabel(l.size_bin)}`, low: l.cohort_p50_us, mid: l.cohort_p95_us, high: l.cohort_p99_us, you: [l.own_p50_us, l.own_p99_us] };
}

const QUARTILES = { band: "Cohort p25–p75", mid: "Cohort median", you: ["You"] };
const LATENCY = { band: "Cohort p50–p99", mid: "Cohort p95", you: ["Your p50", "Your p99"] };

/**
 * A published cohort as a collapsible panel: read share and working set / tier capacity as the
 * cohort's p25–p75 band with its median, latency per direction and ioLength bin as the cohort's
 * p50–p99 (µs) with its p95, each with the caller's own values marked; the figures the cohort
 * does not publish (fewer than min_tenants participants have one) named once below.
 */
export function BenchmarkCohort({ cohort: c, open, minTenants }: { cohort: Cohort; open: boolean; minTenants: number }) {
  const read = scalarRow("Read share", c.read_share);
  const wss = scalarRow("Working set / tier", c.wss_per_capacity);
  const latency = c.latency.map((l) => [l, latencyRow(l)] as const);
  const drawn = latency.flatMap(([, row]) => (row ? [row] : []));
  const missing = [
    ...(read ? [] : ["read share"]),
    ...(wss ? [] : ["working set / tier"]),
    ...latency.flatMap(([l, row]) => (row ? [] : [`${l.direction} ${sizeBinLabel(l.size_bin)} latency`])),
  ];
  const name = cohortName(c);
  return (
    <details className="panel cohort" open={open} data-testid="cohort" data-media={c.media} data-workload-class={c.workload_class}>
      <summary>
        <h3>{MEDIA[c.media]}</h3> · your {volumeCount(c.volume_ids.length)} · about {c.tenant_count} independent owners
        {c.read_share.rank_band && <> · your read share {BAND[c.read_share.rank_band]}</>}
      </summary>
      <div className="chart-grid">
        {read && <BandChart rows={[read]} unit="percent" names={QUARTILES} label={`${name}: read share, the cohort's p25–p75 and median, and yours`} testId="band-read-share" />}
        {wss && <BandChart rows={[wss]} unit="ratio" names={QUARTILES} label={`${name}: working set / tier capacity, the cohort's p25–p75 and median, and yours`} testId="band-wss" />}
        {drawn.length > 0 && (
          <BandChart rows={drawn} unit="us" names={LATENCY} label={`${name}: latency by direction and I/O size, the cohort's p50–p99 and p95, and your p50 and p99`} testId="band-latency" />
        )}
      </div>
      {missing.length > 0 && (
        <p className="muted small" data-testid="figures-unpublished">
          Not published for this cohort, fewer than {minTenants} owners have them: {missing.join(", ")}.
        </p>
      )}
    </details>
  );
}
