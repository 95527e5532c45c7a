import Link from "next/link";
import type { VolumeSort, VolumeSummary } from "@/lib/api-schemas";
import { formatBytes, formatCount, formatExact, formatPercent, share } from "@/lib/format";
import { ImportedBadge } from "./ImportedBadge";
import { NameOrId } from "./NameOrId";

const SORTABLE: Partial<Record<string, VolumeSort>> = { "I/Os": "ops", "Hit ratio": "hit_ratio", "Working set": "wss" };
const COLUMNS = ["Volume", "Host", "I/Os", "Read share", "Hit ratio", "Working set", "Recommended tier"];

/**
 * The volume list: one row per volume linking to its page, imported ones badged. Sortable column headers link to
 * the first page with that sort (descending, as the API sorts).
 */
export function VolumeTable({ volumes, sort }: { volumes: VolumeSummary[]; sort: VolumeSort }) {
  return (
    <div className="table-scroll">
      <table className="table" data-testid="volume-table">
        <thead>
          <tr>
            {COLUMNS.map((name) => {
              const key = SORTABLE[name];
              return (
                <th key={name} scope="col" aria-sort={key === sort ? "descending" : undefined} className={name === "Volume" || name === "Host" ? "" : "num"}>
                  {key ? (
                    <Link href={`/volumes?sort=${key}`} className={key === sort ? "sort sort--active" : "sort"}>
                      {name}
                      {key === sort && <span aria-hidden="true"> ↓</span>}
                    </Link>
                  ) : (
                    name
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {volumes.length === 0 && (
            <tr>
              <td colSpan={COLUMNS.length} className="muted">
                No volumes yet: install the agent on a host and its volumes appear here.
              </td>
            </tr>
          )}
          {volumes.map((v) => (
            <tr key={v.volume_id} data-testid="volume-row" data-volume-id={v.volume_id}>
              <td>
                <Link href={`/volumes/${encodeURIComponent(v.volume_id)}`} className="volume-name">
                  <NameOrId name={v.display_name} id={v.volume_id} kind="volume" />
                </Link>
                <ImportedBadge source={v.source} />
              </td>
              <td>
                <NameOrId name={v.host_display_name} id={v.host_id} kind="host" />
              </td>
              <td className="num" title={formatExact(v.read_ops + v.write_ops)}>
                {formatCount(v.read_ops + v.write_ops)}
              </td>
              <td className="num">{formatPercent(share(v.read_ops, v.write_ops))}</td>
              <td className="num">{formatPercent(v.hit_ratio)}</td>
              <td className="num">{formatBytes(v.wss_bytes)}</td>
              <td className="num">{formatBytes(v.recommended_tier_bytes)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
