import { cohortName, volumeCount, type Cohort } from "@/lib/benchmarks";
import { formatPercent, formatRatio } from "@/lib/format";

/**
 * The cohorts too small to publish, listed once with the reason (fewer than `minTenants`
 * independent owners with `minDays` days of data) and the caller's own figures in each.
 */
export function UnpublishedCohorts({ cohorts, minTenants, minDays }: { cohorts: Cohort[]; minTenants: number; minDays: number }) {
  return (
    <section className="panel" aria-labelledby="unpublished" data-testid="unpublished">
      <h2 id="unpublished">Cohorts not shown</h2>
      <p className="muted">
        Each of these cohorts is too small to publish: it has fewer than {minTenants} independent owners (owner e-mail domains) with {minDays} days of
        data, so its figures would reveal theirs. Only your own figures are known.
      </p>
      <ul className="plain-list">
        {cohorts.map((c) => (
          <li key={`${c.media}-${c.workload_class}`} data-testid="unpublished-cohort">
            <strong>{cohortName(c)}</strong>: your {volumeCount(c.volume_ids.length)}, read share {formatPercent(c.read_share.own)}, working set / tier{" "}
            {formatRatio(c.wss_per_capacity.own)}
          </li>
        ))}
      </ul>
    </section>
  );
}
