import type { VolumeSource } from "@/lib/api-schemas";

/**
 * "Imported from vscsiStats" beside a volume's name when its figures come from VMware
 * `vscsiStats -p all -c` output (docs/workload.md) rather than the agent; nothing otherwise.
 */
export function ImportedBadge({ source }: { source: VolumeSource }) {
  if (source !== "vscsistats") return null;
  return (
    <span className="badge badge--muted" data-testid="imported-badge" title="Histograms imported from vscsiStats output: no tier, so no hit ratio, working set or recommendation">
      Imported from vscsiStats
    </span>
  );
}
