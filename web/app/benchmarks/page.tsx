import type { Metadata } from "next";
import "@/app/analytics.css";
import { BenchmarkCohort } from "@/components/analytics/BenchmarkCohort";
import { UnpublishedCohorts } from "@/components/analytics/UnpublishedCohorts";
import { getBenchmarks } from "@/lib/analytics-api";
import { byClass, CLASSES } from "@/lib/benchmarks";
import { definePage } from "@/lib/page";

export const metadata: Metadata = { title: "Fleet benchmarks" };

/**
 * /benchmarks: where this tenant stands in each fleet cohort (tier media × workload class;
 * docs/benchmarks.md). Published cohorts are grouped by workload class, each collapsible (the
 * first open) with its figures as percentile bands and the tenant marked; the cohorts too small to
 * publish are listed once, with why.
 */
export default definePage({ permission: "fleet.read" }, async () => {
  const b = await getBenchmarks();
  const cohorts = byClass(b.cohorts);
  const published = cohorts.filter((c) => c.published);
  const unpublished = cohorts.filter((c) => !c.published);
  const classes = [...new Set(published.map((c) => c.workload_class))];
  return (
    <>
      <h1>Fleet benchmarks</h1>
      <p className="muted">
        Last {b.window_days} days. A tenant counts in a cohort once its volumes there have reported on {b.min_days} days, and all the tenants of one owner e-mail domain
        count as one. A cohort&apos;s figures are shown only when {b.min_tenants} such domains are in it, each weighing the same, with random noise added
        (differential privacy, ε = {b.epsilon} per figure and day): they are approximate, and so is your band among its quartiles.
      </p>
      {b.cohorts.length === 0 && <p className="muted">No volume with I/O in the window.</p>}
      {published.length > 0 && (
        <p className="muted small">
          Each figure is the cohort&apos;s band, p25 to p75 with its median marked, and your own value; latency is the cohort&apos;s p50 to p99 with its p95, and your p50
          and p99.
        </p>
      )}
      {classes.map((k) => (
        <section key={k} aria-labelledby={`class-${k}`} data-testid="workload-class">
          <h2 id={`class-${k}`}>{CLASSES[k]}</h2>
          {published
            .filter((c) => c.workload_class === k)
            .map((c) => (
              <BenchmarkCohort key={c.media} cohort={c} open={c === published[0]} minTenants={b.min_tenants} />
            ))}
        </section>
      ))}
      {unpublished.length > 0 && <UnpublishedCohorts cohorts={unpublished} minTenants={b.min_tenants} minDays={b.min_days} />}
    </>
  );
});
