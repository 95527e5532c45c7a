import type { Metadata } from "next";
import { DataTable, FormPanel, RowAction } from "@/components/AdminBlocks";
import { CursorPager } from "@/components/CursorPager";
import { FilterLinks } from "@/components/FilterLinks";
import { ApiKeyStatus } from "@/lib/account-schemas";
import { listApiKeys } from "@/lib/accounts-api";
import { formatTimestamp } from "@/lib/format";
import { definePage } from "@/lib/page";
import { PageQuery } from "@/lib/paging";
import { can } from "@/lib/permissions";
import { parseQuery } from "@/lib/query";
import { createApiKey, revokeApiKey } from "../actions";

export const metadata: Metadata = { title: "API keys" };

const PATH = "/settings/api-keys";
const Query = PageQuery.extend({ status: ApiKeyStatus.default("active") });

/**
 * /settings/api-keys: create a key (its secret shown once), list keys by status, 25 a page,
 * revoke. Keys act as a viewer (read) or an admin (read-write) for the CLI, SDK and scripts.
 */
export default definePage({ permission: "api_keys.read" }, async ({ searchParams, session }) => {
  const query = await parseQuery(Query, searchParams);
  const page = await listApiKeys(query.status, query.cursor ?? null);
  const manage = can(session.role, "api_keys.write");
  return (
    <>
      <h1>API keys</h1>
      {manage && (
        <FormPanel title="New key" action={createApiKey} submitLabel="Create key" testId="create-key-form">
          <label>
            Name
            <input name="name" required maxLength={100} placeholder="terraform" />
          </label>
          <label>
            Scope
            <select name="scope" defaultValue="read">
              <option value="read">read (acts as a viewer)</option>
              <option value="read-write">read-write (acts as an admin)</option>
            </select>
          </label>
        </FormPanel>
      )}
      <FilterLinks path={PATH} name="status" current={query.status === "active" ? "" : query.status} values={{ "": "Active", revoked: "Revoked", all: "All" }} label="Show" />
      <DataTable
        testId="api-keys"
        columns={["Name", "Key", "Scope", "Created", "Last used", "Status", ...(manage ? ["Actions"] : [])]}
        empty={`No ${query.status === "all" ? "" : `${query.status} `}key.`}
        rows={page.data.map((key) => (
          <tr key={key.id} data-testid="api-key-row" data-name={key.name} data-status={key.revoked_at ? "revoked" : "active"}>
            <td>{key.name}</td>
            <td>
              <code>{key.key_prefix ? `${key.key_prefix}…` : "—"}</code>
            </td>
            <td>{key.scope}</td>
            <td>{formatTimestamp(key.created_at)}</td>
            <td>{key.last_used_at ? formatTimestamp(key.last_used_at) : "never"}</td>
            <td>{key.revoked_at ? <span className="badge badge--muted">revoked {formatTimestamp(key.revoked_at)}</span> : <span className="badge badge--ok">active</span>}</td>
            {manage && <td>{!key.revoked_at && <RowAction action={revokeApiKey} id={key.id} label="Revoke" danger />}</td>}
          </tr>
        ))}
      />
      <CursorPager path={PATH} filters={{ status: query.status }} page={query} nextCursor={page.next_cursor} label="API key pages" />
    </>
  );
});
