import type { Metadata } from "next";
import "@/app/analytics.css";
import { LiveRefresh } from "@/components/analytics/LiveRefresh";
import { ParamToggle, RangePicker } from "@/components/analytics/RangePicker";
import { LatencyMatrix } from "@/components/analytics/SizeCharts";
import { VolumeHeader } from "@/components/analytics/VolumeHeader";
import { getVolume } from "@/lib/api";
import { getSeries } from "@/lib/analytics-api";
import { directionOf, DIRECTIONS } from "@/lib/direction";
import { PortalError } from "@/lib/errors";
import { definePage } from "@/lib/page";
import { one } from "@/lib/search-params";
import { parseRange, rangeQuery } from "@/lib/time-range";

export const metadata: Metadata = { title: "Performance matrix" };

/** Columns of the matrix: wide enough cells to read and to hover. */
const MATRIX_COLUMNS = 96;
const PERCENTILES = { p50: "p50", p95: "p95", p99: "p99" } as const;

/** /volumes/[volumeId]/matrix: latency by block size over time (heatmap). */
export default definePage<{ volumeId: string }>({ permission: "volumes.read" }, async ({ params, searchParams }) => {
  const { volumeId } = await params;
  const query = await searchParams;
  const range = parseRange(query);
  const direction = directionOf(one(query.direction));
  const percentile = one(query.percentile) ?? "p99";
  if (!(percentile in PERCENTILES)) throw new PortalError("bad_request", `percentile must be p50, p95 or p99, got "${percentile}".`);
  const [volume, series] = await Promise.all([getVolume(volumeId), getSeries("volume", volumeId, range, { sizes: true, width: MATRIX_COLUMNS })]);
  const path = `/volumes/${volumeId}/matrix`;
  const keep = rangeQuery(range);
  return (
    <>
      <VolumeHeader volume={volume} current="/matrix" keep={keep} />
      <section className="panel" aria-labelledby="matrix">
        <h2 id="matrix">Latency by block size over time</h2>
        <div className="controls">
          <RangePicker path={path} range={range} keep={{ direction, percentile }} />
          <ParamToggle path={path} name="direction" value={direction} options={DIRECTIONS} keep={{ ...keep, percentile }} label="Direction" />
          <ParamToggle path={path} name="percentile" value={percentile} options={PERCENTILES} keep={{ ...keep, direction }} label="Percentile" />
        </div>
        {range.live && <LiveRefresh />}
        {series.points.length > 0 ? (
          <LatencyMatrix series={series} direction={direction} percentile={percentile as keyof typeof PERCENTILES} subject={volume.display_name ?? volume.volume_id} />
        ) : (
          <p className="muted">No I/O reported in this range.</p>
        )}
        <p className="muted small">Percentiles from the merged latency histograms of each cell (never averaged); colour on a log scale.</p>
      </section>
    </>
  );
});
