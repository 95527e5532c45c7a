"use client";

import { useEffect, useRef } from "react";
import type { SeriesPoint } from "@/lib/analytics-schemas";
import { sizeBinLabel } from "@/lib/block-size-bins";
import { formatCount, formatLatency, formatPercent, formatRate, formatTimestamp } from "@/lib/format";

/** The storage types a point's I/O was served by, after the VM-observed totals. */
const SERVED_BY = [
  ["cache", "cache"],
  ["peer", "peer"],
  ["datastore", "datastore"],
] as const;

/** Everything one point holds: rates, where bytes were served, hit ratios and latency per direction and size. */
export function PointDetail({ point, bucketSeconds, onClose }: { point: SeriesPoint; bucketSeconds: number; onClose: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [point]);
  const latencyRows: [string, SeriesPoint["latency"]][] = [
    ["All", point.latency],
    ["Read", point.read_latency],
    ["Write", point.write_latency],
  ];
  return (
    <section className="panel point-detail" aria-labelledby="point-detail" data-testid="point-detail">
      <div className="point-detail__head">
        <h3 id="point-detail" tabIndex={-1} ref={heading}>
          {formatTimestamp(point.t)} · {bucketSeconds} s
        </h3>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <dl className="facts">
        <dt>IOPS</dt>
        <dd>
          {formatCount(point.read_iops + point.write_iops)} ({formatCount(point.read_iops)} read, {formatCount(point.write_iops)} write); windows{" "}
          {formatCount(point.iops_min)}–{formatCount(point.iops_max)}
        </dd>
        <dt>Throughput</dt>
        <dd>
          {formatRate(point.read_bytes_per_s)} read, {formatRate(point.write_bytes_per_s)} write
        </dd>
        <dt>Served by</dt>
        <dd>
          {SERVED_BY.filter(([key]) => point.sources[key])
            .map(([key, name]) => `${name} ${formatCount(point.sources[key]!.iops)} IOPS, ${formatRate(point.sources[key]!.bytes_per_s)}, p99 ${formatLatency(point.sources[key]!.latency?.p99_us)}`)
            .join("; ")}
        </dd>
        <dt>Hit ratio</dt>
        <dd>
          {formatPercent(point.hit_ratio)} (reads {formatPercent(point.read_hit_ratio)})
        </dd>
      </dl>
      <table className="table compact">
        <caption className="visually-hidden">Latency percentiles of the point</caption>
        <thead>
          <tr>
            <th scope="col">I/Os</th>
            <th scope="col">p50</th>
            <th scope="col">p95</th>
            <th scope="col">p99</th>
            <th scope="col">worst window p99</th>
          </tr>
        </thead>
        <tbody>
          {latencyRows.map(([name, l]) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td>{formatLatency(l?.p50_us)}</td>
              <td>{formatLatency(l?.p95_us)}</td>
              <td>{formatLatency(l?.p99_us)}</td>
              <td>{formatLatency(l?.p99_max_us)}</td>
            </tr>
          ))}
          {point.sizes
            .filter((s) => s.direction !== "all")
            .map((s) => (
              <tr key={`${s.direction}${s.size_bin}`}>
                <th scope="row">
                  {s.direction} {sizeBinLabel(s.size_bin)} ({formatPercent(s.share)})
                </th>
                <td>{formatLatency(s.p50_us)}</td>
                <td>{formatLatency(s.p95_us)}</td>
                <td>{formatLatency(s.p99_us)}</td>
                <td>{formatLatency(s.p99_max_us)}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </section>
  );
}
