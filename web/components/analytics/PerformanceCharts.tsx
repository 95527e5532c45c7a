"use client";

import { useState } from "react";
import { TimeSeriesChart } from "@/components/charts/TimeSeriesChart";
import type { Series } from "@/lib/analytics-schemas";
import { breakdownLines, type Breakdown } from "./breakdowns";
import { PointDetail } from "./PointDetail";

interface PerformanceChartsProps {
  series: Series;
  breakdown: Breakdown;
  /** What is drawn, for the charts' labels: "volume sql-data-01". */
  subject: string;
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
  return (
    <>
      <div className="chart-grid">
        <section aria-label="IOPS">
          <h3>IOPS</h3>
          <TimeSeriesChart
            times={times}
            lines={lines.iops}
            band={breakdown === "storage" ? { name: "min–max of windows", lower: series.points.map((p) => p.iops_min), upper: series.points.map((p) => p.iops_max) } : undefined}
            unit="iops"
            stepSeconds={step}
            label={`IOPS of ${subject} by ${breakdown}, ${range}`}
            testId="iops-chart"
            height={260}
            onSelect={setSelected}
          />
        </section>
        {lines.throughput.length > 0 && (
          <section aria-label="Throughput">
            <h3>Throughput</h3>
            <TimeSeriesChart
              times={times}
              lines={lines.throughput}
              unit="bytes_per_s"
              stepSeconds={step}
              label={`Throughput of ${subject} by ${breakdown}, ${range}`}
              testId="throughput-chart"
              height={260}
              onSelect={setSelected}
            />
          </section>
        )}
        <section aria-label="Latency">
          <h3>Latency</h3>
          <TimeSeriesChart
            times={times}
            lines={lines.latency}
            unit="us"
            stepSeconds={step}
            label={`Latency percentiles of ${subject} by ${breakdown}, ${range}`}
            testId="latency-chart"
            height={260}
            onSelect={setSelected}
          />
        </section>
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
