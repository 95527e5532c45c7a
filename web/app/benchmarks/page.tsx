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

/** The caller's band among the cohort's published quartiles, as shown. */
const BAND = { below_p25: "below p25", p25_p50: "p25 – p50", p50_p75: "p50 – p75", above_p75: "above p75" } as const;

/** Own value, the cohort's (noisy) quartiles and the caller's band among them. */
function Standing({ name, s, format }: { name: string; s: Cohort["read_share"]; format: (v: number | null) => string }) {
  return (
    <tr>
      <th scope="row">{name}</th>
      <td>{format(s.own)}</td>
      <td>
        {format(s.cohort_p25)} / {format(s.cohort_p50)} / {format(s.cohort_p75)}
      </td>
      <td>{s.rank_band == null ? "—" : BAND[s.rank_band]}</td>
    </tr>
  );
}

/**
 * /benchmarks: where this tenant stands in each fleet cohort (tier media × workload class); cohorts of
 * min_tenants independent actors, figures with differential-privacy noise (docs/benchmarks.md).
 */
export default definePage({ permission: "fleet.read" }, async () => {
  const b = await getBenchmarks();
  return (
    <>
      <h1>Fleet benchmarks</h1>
      <p className="muted">
        Last {b.window_days} days. A tenant counts in a cohort once its volumes there have reported on {b.min_days} days, and all the tenants of one owner e-mail domain
        count as one. A cohort&apos;s figures are shown only when {b.min_tenants} such domains are in it, each weighing the same, with random noise added
        (differential privacy, ε = {b.epsilon} per figure and day): they are approximate, and so is your band among its quartiles.
      </p>
      {b.cohorts.length === 0 && <p className="muted">No volume with I/O in the window.</p>}
      {b.cohorts.map((c) => (
        <section key={`${c.media}-${c.workload_class}`} className="panel" aria-label={`${c.workload_class}, ${MEDIA[c.media]}`} data-testid="cohort">
          <h2>
            {c.workload_class}, {MEDIA[c.media]} <span className="muted small">· your {c.volume_ids.length} volume(s){c.published ? `, about ${c.tenant_count} independent owners` : ", cohort too small to publish"}</span>
          </h2>
          <div className="table-scroll">
            <table className="table">
              <caption className="visually-hidden">Your figures against the cohort</caption>
              <thead>
                <tr>
                  <th scope="col">Figure</th>
                  <th scope="col">You</th>
                  <th scope="col">Cohort p25 / p50 / p75</th>
                  <th scope="col">Your band</th>
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
