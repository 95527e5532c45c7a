import Link from "next/link";
import { DataTable } from "@/components/AdminBlocks";
import { NameOrId } from "@/components/NameOrId";
import type { OverviewVolume } from "@/lib/analytics-schemas";
import { formatCount, formatLatency, formatRate } from "@/lib/format";

/** A top list of volumes over the period (by latency or by IOPS). */
export function TopVolumes({ volumes, caption, testId, query }: { volumes: OverviewVolume[]; caption: string; testId: string; query: Record<string, string> }) {
  return (
    <DataTable
      testId={testId}
      caption={caption}
      columns={["Volume", "#IOPS", "#Throughput", "#p50", "#p99"]}
      empty="No I/O in this period."
      rows={volumes.map((v) => (
        <tr key={v.volume_id}>
          <th scope="row">
            <Link href={{ pathname: `/volumes/${v.volume_id}`, query }}><NameOrId name={v.display_name} id={v.volume_id} kind="volume" /></Link>
          </th>
          <td className="num">{formatCount(v.iops)}</td>
          <td className="num">{formatRate(v.bytes_per_s)}</td>
          <td className="num">{formatLatency(v.latency?.p50_us)}</td>
          <td className="num">{formatLatency(v.latency?.p99_us)}</td>
        </tr>
      ))}
    />
  );
}
