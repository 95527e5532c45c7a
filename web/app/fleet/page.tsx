import type { Metadata } from "next";
import "@/app/analytics.css";
import { LiveRefresh } from "@/components/analytics/LiveRefresh";
import { PerformanceCharts } from "@/components/analytics/PerformanceCharts";
import { RangePicker } from "@/components/analytics/RangePicker";
import { TopVolumes } from "@/components/analytics/TopVolumes";
import { PerformanceMap } from "@/components/charts/PerformanceMap";
import { StatTile } from "@/components/StatTile";
import { getOverview, getSeries } from "@/lib/analytics-api";
import { formatBytes, formatCount, formatExact, formatLatency, formatPercent } from "@/lib/format";
import { definePage } from "@/lib/page";
import { parseRange, rangeQuery } from "@/lib/time-range";

export const metadata: Metadata = { title: "Fleet overview" };

/**
 * /fleet: the fleet over a chosen period — I/Os and bytes offloaded from the datastores, writes
 * accelerated, latency; top volumes by latency and by IOPS; the performance map; the tenant's IOPS,
 * throughput and latency over time.
 */
export default definePage({ permission: "fleet.read" }, async ({ searchParams }) => {
  const range = parseRange(await searchParams);
  const [overview, series] = await Promise.all([getOverview(range), getSeries("tenant", null, range)]);
  const t = overview.totals;
  const keep = rangeQuery(range);
  return (
    <>
      <h1>Fleet overview</h1>
      <RangePicker path="/fleet" range={range} />
      {range.live && <LiveRefresh />}
      <div className="tiles" aria-label="Hero numbers">
        <StatTile testId="hero-ios-offloaded" label="I/Os offloaded" value={formatCount(t.ios_offloaded)} detail={`of ${formatCount(t.ios)} I/Os kept off the datastores (${formatPercent(t.read_hit_ratio)} of reads)`} />
        <StatTile testId="hero-bytes-offloaded" label="Bytes offloaded" value={formatBytes(t.bytes_offloaded)} detail={`of ${formatBytes(t.bytes)} moved`} />
        <StatTile testId="hero-writes-accelerated" label="Writes accelerated" value={formatCount(t.writes_accelerated)} detail={<span title={formatExact(t.writes_accelerated)}>acknowledged from the tier (write-back)</span>} />
        <StatTile testId="hero-latency" label="Latency p99" value={formatLatency(t.latency?.p99_us)} detail={`p50 ${formatLatency(t.latency?.p50_us)}`} />
      </div>
      <section className="panel" aria-labelledby="fleet-performance">
        <h2 id="fleet-performance">Fleet I/O</h2>
        <PerformanceCharts series={series} breakdown="storage" subject="the fleet" />
      </section>
      <section className="panel" aria-labelledby="map">
        <h2 id="map">Performance map</h2>
        <PerformanceMap hosts={overview.hosts} query={keep} />
      </section>
      <div className="two-columns">
        <section className="panel" aria-labelledby="top-latency">
          <h2 id="top-latency">Top volumes by latency (p99)</h2>
          <TopVolumes volumes={overview.top_by_latency} caption="Volumes with the highest 99th percentile latency" testId="top-latency" query={keep} />
        </section>
        <section className="panel" aria-labelledby="top-iops">
          <h2 id="top-iops">Top volumes by IOPS</h2>
          <TopVolumes volumes={overview.top_by_iops} caption="Volumes with the most IOPS" testId="top-iops" query={keep} />
        </section>
      </div>
    </>
  );
});
