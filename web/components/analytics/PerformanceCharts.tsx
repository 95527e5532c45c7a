"use client";

import { useState, type ComponentProps } from "react";
import { TimeSeriesChart, type TimeLine } from "@/components/charts/TimeSeriesChart";
import type { ValueUnit } from "@/lib/format";
import type { Series } from "@/lib/analytics-schemas";
import { breakdownLines, type Breakdown } from "./breakdowns";
import { PointDetail } from "./PointDetail";

interface PerformanceChartsProps {
  series: Series;
  breakdown: Breakdown;
  /** What is drawn, for the charts' labels: "volume sql-data-01". */
  subject: string;
}

/** One of the charts: its heading, what its label says it draws, and its lines. */
interface ChartSpec {
  title: string;
  what: string;
  testId: string;
  lines: TimeLine[];
  unit: ValueUnit;
  band?: ComponentProps<typeof TimeSeriesChart>["band"];
}

/**
 * IOPS, throughput and latency of one scope over the chosen range, split by the breakdown;
 * IOPS carry the min..max band of single windows. Clicking a point (or a data-table row) shows
 * that point's detail below the charts.
 */
export function PerformanceCharts({ series, breakdown, subject }: PerformanceChartsProps) {
  const [selected, setSelected] = useState<number | null>(null);
  const times = series.points.map((p) => p.t);
  const lines = breakdownLines(series.points, breakdown, series.size_bins);
  const step = series.bucket_seconds;
  const range = `${series.points.length} points of ${step} s from ${series.resolution} rollups`;
  if (series.points.length === 0) return <p className="muted">No I/O reported in this range.</p>;
  const band = breakdown === "storage" ? { name: "min–max of windows", lower: series.points.map((p) => p.iops_min), upper: series.points.map((p) => p.iops_max) } : undefined;
  // One chart each; throughput only when the breakdown has throughput lines.
  const charts: ChartSpec[] = [
    { title: "IOPS", what: "IOPS", testId: "iops-chart", lines: lines.iops, unit: "iops", band },
    ...(lines.throughput.length > 0 ? [{ title: "Throughput", what: "Throughput", testId: "throughput-chart", lines: lines.throughput, unit: "bytes_per_s" } as const] : []),
    { title: "Latency", what: "Latency percentiles", testId: "latency-chart", lines: lines.latency, unit: "us" },
  ];
  return (
    <>
      <div className="chart-grid">
        {charts.map((c) => (
          <section key={c.testId} aria-label={c.title}>
            <h3>{c.title}</h3>
            <TimeSeriesChart
              times={times}
              lines={c.lines}
              band={c.band}
              unit={c.unit}
              stepSeconds={step}
              label={`${c.what} of ${subject} by ${breakdown}, ${range}`}
              testId={c.testId}
              height={260}
              onSelect={setSelected}
            />
          </section>
        ))}
      </div>
      {lines.notes.map((n) => (
        <p key={n} className="muted small">
          {n}
        </p>
      ))}
      {selected !== null && series.points[selected] && (
        <PointDetail point={series.points[selected]} bucketSeconds={step} onClose={() => setSelected(null)} />
      )}
    </>
  );
}
