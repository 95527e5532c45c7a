import type { Metadata } from "next";
import "@/app/analytics.css";
import Link from "next/link";
import { LiveRefresh } from "@/components/analytics/LiveRefresh";
import { PerformanceCharts } from "@/components/analytics/PerformanceCharts";
import { mrcWindowOf, SharedTierRecommendationPanel, SharedTierWindows } from "@/components/analytics/SharedTier";
import { MissRatioCurvePanel } from "@/components/analytics/WorkingSetPanels";
import { ParamToggle, RangePicker } from "@/components/analytics/RangePicker";
import { TopVolumes } from "@/components/analytics/TopVolumes";
import { BREAKDOWN_LABELS, type Breakdown } from "@/components/analytics/breakdowns";
import { getHostWorkingSet, getOverview, getSeries } from "@/lib/analytics-api";
import type { HostWorkingSet } from "@/lib/analytics-schemas";
import { PortalError } from "@/lib/errors";
import { definePage } from "@/lib/page";
import { one } from "@/lib/search-params";
import { parseRange, rangeQuery } from "@/lib/time-range";

export const metadata: Metadata = { title: "Host" };

/** Volumes listed on a host page, busiest first; the Volumes page pages through all of them. */
const HOST_VOLUMES_SHOWN = 50;

const HOST_BREAKDOWNS: Partial<Record<Breakdown, string>> = { storage: BREAKDOWN_LABELS.storage, direction: BREAKDOWN_LABELS.direction, size: BREAKDOWN_LABELS.size };

/**
 * /hosts/[hostId]: a host's IOPS, throughput and latency with breakdowns, its volumes over the
 * range, and the tier they share: the one recommended from their merged stream and every eviction
 * policy's MRC of it.
 */
export default definePage<{ hostId: string }>({ permission: "fleet.read" }, async ({ params, searchParams }) => {
  const { hostId } = await params;
  const query = await searchParams;
  const range = parseRange(query);
  const breakdown = (one(query.breakdown) ?? "storage") as Breakdown;
  if (!(breakdown in HOST_BREAKDOWNS)) throw new PortalError("bad_request", "breakdown must be storage, direction or size.");
  const [overview, series, tier] = await Promise.all([getOverview(range), getSeries("host", hostId, range, { sizes: breakdown === "size" }), getHostWorkingSet(hostId)]);
  const host = overview.hosts.find((h) => h.host_id === hostId);
  if (!host) throw new PortalError("not_found", `No host ${hostId}.`);
  const keep = rangeQuery(range);
  const path = `/hosts/${hostId}`;
  return (
    <>
      <p className="crumbs">
        <Link href={{ pathname: "/fleet", query: keep }}>Fleet</Link> /
      </p>
      <h1>{host.display_name ?? <code>{host.host_id}</code>}</h1>
      <section className="panel" aria-labelledby="host-performance">
        <h2 id="host-performance">Performance</h2>
        <div className="controls">
          <RangePicker path={path} range={range} keep={{ breakdown }} />
          <ParamToggle path={path} name="breakdown" value={breakdown} options={HOST_BREAKDOWNS as Record<string, string>} keep={keep} label="Breakdown" />
        </div>
        {range.live && <LiveRefresh />}
        <PerformanceCharts series={series} breakdown={breakdown} subject={`host ${host.display_name ?? host.host_id}`} />
      </section>
      <section className="panel" aria-labelledby="host-volumes">
        <h2 id="host-volumes">Volumes</h2>
        <TopVolumes
          volumes={host.volumes.slice(0, HOST_VOLUMES_SHOWN)}
          caption={
            host.volumes.length > HOST_VOLUMES_SHOWN
              ? `The ${HOST_VOLUMES_SHOWN} busiest of the host's ${host.volumes.length} volumes by I/Os`
              : "Volumes of the host by I/Os"
          }
          testId="host-volumes"
          query={keep}
        />
        {host.volumes.length > HOST_VOLUMES_SHOWN && (
          <p>
            <Link href="/volumes">Every volume</Link> is on the Volumes page.
          </p>
        )}
      </section>
      {tier.recommendation ? <SharedTierRecommendationPanel recommendation={tier.recommendation} volumesRecommendedBytes={tier.volumes_recommended_tier_bytes} testIdPrefix="host" /> : null}
      <SharedTierPanel tier={tier} />
    </>
  );
});

/** The merged stream of the host's volumes: its working set per window and every policy's MRC with the current and recommended tier. */
function SharedTierPanel({ tier }: { tier: HostWorkingSet }) {
  return (
    <>
      <section className="panel" aria-labelledby="host-tier">
        <h2 id="host-tier">The tier its volumes share</h2>
        {tier.windows.length > 0 ? <SharedTierWindows windows={tier.windows} /> : <p className="muted">No working set of the host&apos;s volumes together yet: it needs sampled block references from its agent.</p>}
      </section>
      <MissRatioCurvePanel
        mrc={mrcWindowOf(tier.windows)?.mrc ?? null}
        currentBytes={tier.capacity_bytes}
        recommendedBytes={tier.recommendation?.tier_bytes ?? null}
        recommendedNote=" (one tier shared by its volumes; current: their tiers added up)"
      />
    </>
  );
}
