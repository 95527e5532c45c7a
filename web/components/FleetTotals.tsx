import type { FleetSummary } from "@/lib/api-schemas";
import { formatBytes, formatCount, formatExact, formatPercent, share } from "@/lib/format";
import { StatTile } from "./StatTile";

/** Tenant-wide totals: volumes, I/Os, read/write mix, hit ratio, working set. */
export function FleetTotals({ fleet }: { fleet: FleetSummary }) {
  const ops = fleet.read_ops + fleet.write_ops;
  const readOps = share(fleet.read_ops, fleet.write_ops);
  const readBytes = share(fleet.read_bytes, fleet.write_bytes);
  return (
    <section className="tiles" aria-label="Fleet totals">
      <StatTile testId="fleet-volumes" label="Volumes" value={formatExact(fleet.volumes)} detail={`on ${formatExact(fleet.hosts)} ${fleet.hosts === 1 ? "host" : "hosts"}`} />
      <StatTile testId="fleet-ios" label="I/Os" value={formatCount(ops)} detail={`${formatBytes(fleet.read_bytes + fleet.write_bytes)} transferred`} />
      <StatTile
        testId="fleet-mix"
        label="Read / write mix"
        value={readOps == null ? "—" : `${formatPercent(readOps)} read`}
        detail={readBytes == null ? undefined : `${formatPercent(readBytes)} of bytes read`}
      />
      <StatTile
        testId="fleet-hit-ratio"
        label="Hit ratio"
        value={formatPercent(fleet.hit_ratio)}
        detail={`${formatCount(fleet.cache_hits)} hits, ${formatCount(fleet.cache_misses)} misses (4 KiB blocks)`}
      />
      <StatTile testId="fleet-wss" label="Working set" value={formatBytes(fleet.wss_bytes)} detail="sum over volumes" />
    </section>
  );
}
