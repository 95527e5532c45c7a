import type { Metadata } from "next";
import { z } from "zod";
import { DataTable } from "@/components/AdminBlocks";
import { CursorPager } from "@/components/CursorPager";
import { listAuditLog, listMembers } from "@/lib/accounts-api";
import { formatTimestamp } from "@/lib/format";
import { definePage } from "@/lib/page";
import { PageQuery } from "@/lib/paging";
import { parseQuery } from "@/lib/query";

export const metadata: Metadata = { title: "Audit log" };

const PATH = "/settings/audit-log";
/** The API's action filter: "<object>.<verb>", e.g. api_key.create. */
const Query = PageQuery.extend({ action: z.string().regex(/^[a-z_]+\.[a-z_]+$/, "an action looks like api_key.create").optional().or(z.literal("").transform(() => undefined)) });

const show = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/**
 * What a change did, field by field: "field: before → after" for each field that differs
 * (a creation lists the new fields, a deletion the old ones).
 */
function changes(before: Record<string, unknown> | null, after: Record<string, unknown> | null): string[] {
  if (!before) return Object.entries(after ?? {}).map(([key, value]) => `${key}: ${show(value)}`);
  if (!after) return Object.entries(before).map(([key, value]) => `${key}: ${show(value)} → removed`);
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.filter((k) => show(before[k]) !== show(after[k])).map((k) => `${k}: ${show(before[k])} → ${show(after[k])}`);
}

/**
 * /settings/audit-log: every change of the organization, newest first, 50 a page, with the
 * actor (the member's name, or an API key), the target, what changed (field: before → after) and the client address;
 * filter by action. Admins and owners only (the API's audit.read).
 */
export default definePage({ permission: "audit.read" }, async ({ searchParams }) => {
  const query = await parseQuery(Query, searchParams);
  const [page, { members }] = await Promise.all([listAuditLog(query.action, query.cursor ?? null), listMembers()]);
  const names = new Map(members.map((m) => [m.user_id, m.display_name]));
  return (
    <>
      <h1>Audit log</h1>
      <form className="form form--inline filters" action={PATH} method="get" role="search">
        <label>
          Action
          <input name="action" defaultValue={query.action ?? ""} placeholder="api_key.create" pattern="[a-z_]+\.[a-z_]+" />
        </label>
        <button type="submit" className="button button--quiet">
          Filter
        </button>
      </form>
      <DataTable
        testId="audit-log"
        columns={["When", "Action", "Actor", "Target", "Change", "From"]}
        empty={`No entry${query.action ? ` for ${query.action}` : ""}.`}
        rows={page.data.map((e) => (
          <tr key={e.id} data-testid="audit-row" data-action={e.action}>
            <td>{formatTimestamp(e.at)}</td>
            <td>
              <code>{e.action}</code>
            </td>
            <td>
              {e.actor.kind === "user" ? (names.get(e.actor.id) ?? "former member") : "API key"} <code className="small">{e.actor.id.slice(0, 8)}</code>
            </td>
            <td>
              {e.target_kind} {e.target_display_name && <>{e.target_display_name} </>}
              <code className="small" title={e.target_id}>
                {e.target_id.slice(0, 12)}
              </code>
            </td>
            <td className="wrap">
              <ul className="change-list">
                {changes(e.before, e.after).map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </td>
            <td>{e.ip ?? "—"}</td>
          </tr>
        ))}
      />
      <CursorPager path={PATH} filters={{ action: query.action }} page={query} nextCursor={page.next_cursor} label="Audit log pages" />
    </>
  );
});
