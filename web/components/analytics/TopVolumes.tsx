import Link from "next/link";
import type { OverviewVolume } from "@/lib/analytics-schemas";
import { formatCount, formatLatency, formatRate } from "@/lib/format";

/** A top list of volumes over the period (by latency or by IOPS). */
export function TopVolumes({ volumes, caption, testId, query }: { volumes: OverviewVolume[]; caption: string; testId: string; query: Record<string, string> }) {
  if (volumes.length === 0) return <p className="muted">No I/O in this period.</p>;
  return (
    <div className="table-scroll">
      <table className="table" data-testid={testId}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Volume</th>
            <th scope="col">IOPS</th>
            <th scope="col">Throughput</th>
            <th scope="col">p50</th>
            <th scope="col">p99</th>
          </tr>
        </thead>
        <tbody>
          {volumes.map((v) => (
            <tr key={v.volume_id}>
              <th scope="row">
                <Link href={{ pathname: `/volumes/${v.volume_id}`, query }}>{v.display_name ?? <code>{v.volume_id}</code>}</Link>
              </th>
              <td>{formatCount(v.iops)}</td>
              <td>{formatRate(v.bytes_per_s)}</td>
              <td>{formatLatency(v.latency?.p50_us)}</td>
              <td>{formatLatency(v.latency?.p99_us)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
