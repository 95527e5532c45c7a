import type { Metadata } from "next";
import { DataTable } from "@/components/AdminBlocks";
import { CursorPager } from "@/components/CursorPager";
import { FilterLinks } from "@/components/FilterLinks";
import { DeliveryStatus } from "@/lib/account-schemas";
import { listDeliveries } from "@/lib/accounts-api";
import { formatTimestamp } from "@/lib/format";
import { definePage } from "@/lib/page";
import { PageQuery } from "@/lib/paging";
import { parseQuery } from "@/lib/query";

export const metadata: Metadata = { title: "Delivery log" };

const PATH = "/settings/deliveries";
const Query = PageQuery.extend({ status: DeliveryStatus.optional() });
const BADGE: Record<(typeof DeliveryStatus.options)[number], string> = { sent: "badge--ok", pending: "badge--warn", held: "badge--muted", dead: "badge--bad" };

/**
 * /settings/deliveries: every delivery of every event, newest first, 50 a page, filtered by
 * state (dead = the dead letter: attempts exhausted), with attempts and the last error.
 */
export default definePage({ permission: "notifications.read" }, async ({ searchParams }) => {
  const query = await parseQuery(Query, searchParams);
  const page = await listDeliveries(query.status, query.cursor ?? null);
  return (
    <>
      <h1>Delivery log</h1>
      <FilterLinks path={PATH} name="status" current={query.status ?? ""} values={{ "": "All", pending: "Pending", held: "Held", sent: "Sent", dead: "Dead" }} label="State" />
      <DataTable
        testId="deliveries"
        columns={["Created", "Event", "Channel", "State", "#Attempts", "Last error"]}
        empty={`No delivery${query.status ? ` in state ${query.status}` : ""}.`}
        rows={page.data.map((d) => (
          <tr key={d.id} data-testid="delivery-row" data-status={d.status}>
            <td>{formatTimestamp(d.created_at)}</td>
            <td className="wrap">
              {d.event_subject ?? d.event_kind} <span className="muted small">({d.event_kind}, {d.severity})</span>
            </td>
            <td>{d.channel_name ?? d.channel_kind}</td>
            <td>
              <span className={`badge ${BADGE[d.status]}`}>{d.status}</span>
              {d.sent_at && <div className="muted small">{formatTimestamp(d.sent_at)}</div>}
              {d.next_attempt_at && d.status === "pending" && <div className="muted small">next {formatTimestamp(d.next_attempt_at)}</div>}
            </td>
            <td className="num">{d.attempts}</td>
            <td className="wrap">{d.last_error ?? "—"}</td>
          </tr>
        ))}
      />
      <CursorPager path={PATH} filters={{ status: query.status }} page={query} nextCursor={page.next_cursor} label="Delivery log pages" />
    </>
  );
});
