import type { Metadata } from "next";
import "@/app/analytics.css";
import { getBenchmarks } from "@/lib/analytics-api";
import type { Benchmarks } from "@/lib/analytics-schemas";
import { sizeBinLabel } from "@/lib/block-size-bins";
import { formatLatency, formatPercent } from "@/lib/format";
import { definePage } from "@/lib/page";

export const metadata: Metadata = { title: "Fleet benchmarks" };

type Cohort = Benchmarks["cohorts"][number];
const MEDIA = { ram: "RAM tier", nvme: "NVMe tier", none: "no recommendation" } as const;

/** Own value, the cohort's quartiles and the rank as a bar (share of the cohort's tenants below). */
function Standing({ name, s, format }: { name: string; s: Cohort["read_share"]; format: (v: number | null) => string }) {
  return (
    <tr>
      <th scope="row">{name}</th>
      <td>{format(s.own)}</td>
      <td>
        {format(s.cohort_p25)} / {format(s.cohort_p50)} / {format(s.cohort_p75)}
      </td>
      <td>
        {s.rank == null ? (
          "—"
        ) : (
          <span className="rank">
            <meter min={0} max={1} value={s.rank} aria-label={`${name}: above ${formatPercent(s.rank)} of the cohort's tenants`} /> {formatPercent(s.rank)}
          </span>
        )}
      </td>
    </tr>
  );
}

/** /benchmarks: where this tenant stands in each fleet cohort (tier media × workload class), k-anonymous. */
export default definePage({ permission: "fleet.read" }, async () => {
  const b = await getBenchmarks();
  return (
    <>
      <h1>Fleet benchmarks</h1>
      <p className="muted">
        Last {b.window_days} days. A cohort&apos;s figures are shown only when at least {b.min_tenants} tenants are in it; every tenant weighs the same. Rank = share of
        the cohort&apos;s tenants below you.
      </p>
      {b.cohorts.length === 0 && <p className="muted">No volume with I/O in the window.</p>}
      {b.cohorts.map((c) => (
        <section key={`${c.media}-${c.workload_class}`} className="panel" aria-label={`${c.workload_class}, ${MEDIA[c.media]}`} data-testid="cohort">
          <h2>
            {c.workload_class}, {MEDIA[c.media]} <span className="muted small">· your {c.volume_ids.length} volume(s){c.published ? `, ${c.tenant_count} tenants` : ", cohort too small to publish"}</span>
          </h2>
          <div className="table-scroll">
            <table className="table">
              <caption className="visually-hidden">Your figures against the cohort</caption>
              <thead>
                <tr>
                  <th scope="col">Figure</th>
                  <th scope="col">You</th>
                  <th scope="col">Cohort p25 / p50 / p75</th>
                  <th scope="col">Rank</th>
                </tr>
              </thead>
              <tbody>
                <Standing name="Read share" s={c.read_share} format={formatPercent} />
                <Standing name="Working set / tier" s={c.wss_per_capacity} format={(v) => (v == null ? "—" : `${v.toFixed(2)}×`)} />
                {c.latency.map((l) => (
                  <tr key={`${l.direction}${l.size_bin}`}>
                    <th scope="row">
                      {l.direction} {sizeBinLabel(l.size_bin)} p50 / p99
                    </th>
                    <td>
                      {formatLatency(l.own_p50_us)} / {formatLatency(l.own_p99_us)}
                    </td>
                    <td>
                      {formatLatency(l.cohort_p50_us)} / {formatLatency(l.cohort_p99_us)}
                    </td>
                    <td>{l.cohort_p99_us == null || l.own_p99_us == null ? "—" : l.own_p99_us <= l.cohort_p99_us ? "faster than the cohort median's p99" : "slower"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ))}
    </>
  );
});
