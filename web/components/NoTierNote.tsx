/**
 * Said once, in place of the tier's panels, for a volume imported from vscsiStats output: no
 * agent serves it, so it has no tier, hit ratio, working set, miss ratio curve or recommendation.
 */
export function NoTierNote() {
  return (
    <p className="panel muted" data-testid="no-tier">
      Imported from vscsiStats output: no Tierwise agent serves this volume, so it has no tier — no hit ratio, working set, miss ratio curve or
      recommendation. Its I/O mix and vscsiStats histograms are on the Workload view.
    </p>
  );
}
