import type { Metadata } from "next";
import { DataTable, FormPanel, RowAction } from "@/components/AdminBlocks";
import { CursorPager } from "@/components/CursorPager";
import { FilterLinks } from "@/components/FilterLinks";
import { type Agent, AgentStatus } from "@/lib/agent-schemas";
import { listAgents, listUsableEnrollmentTokens } from "@/lib/accounts-api";
import { formatBytes, formatDuration, formatTimestamp } from "@/lib/format";
import { definePage } from "@/lib/page";
import { PageQuery } from "@/lib/paging";
import { can } from "@/lib/permissions";
import { parseQuery } from "@/lib/query";
import { createEnrollmentToken, deleteEnrollmentToken, revokeAgent } from "./actions";
import { LIFETIMES } from "./lifetimes";

export const metadata: Metadata = { title: "Agents" };

const PATH = "/agents";
const Query = PageQuery.extend({ status: AgentStatus.default("active") });
/** An agent whose last health report (or telemetry, without health) is older than this is shown as silent (seconds). */
const SILENT_AFTER_S = 300;

/**
 * The agent's state as a badge: revoked; never heard of; sending telemetry (an agent that only
 * replays traces: ingest accepts its batches, it reports no health); silent (nothing for 5 min);
 * with errors; or reporting.
 */
function HealthBadge({ agent, now }: { agent: Agent; now: number }) {
  const { last_report_at, last_telemetry_at, error_count } = agent.health;
  if (agent.revoked_at) return <span className="badge badge--muted">revoked</span>;
  const lastHeard = last_report_at ?? last_telemetry_at;
  if (!lastHeard) return <span className="badge badge--warn">never reported</span>;
  if (now - Date.parse(lastHeard) > SILENT_AFTER_S * 1000) return <span className="badge badge--bad">silent</span>;
  if (!last_report_at) return <span className="badge badge--ok" title="Ingest receives its telemetry; it reports no health (a replay)">sending telemetry</span>;
  if (error_count) return <span className="badge badge--warn">{error_count} errors</span>;
  return <span className="badge badge--ok">reporting</span>;
}

/**
 * /agents: add an agent (a fresh single-use enrollment token and the install command that
 * uses it, shown once), the tokens still usable, and every agent with the health it last
 * reported (version, uptime, volumes, tier usage, errors); admins revoke.
 */
export default definePage({ permission: "agents.read" }, async ({ searchParams, session }) => {
  const query = await parseQuery(Query, searchParams);
  const manage = can(session.role, "agents.write");
  const [page, tokens] = await Promise.all([listAgents(query.status, query.cursor ?? null), manage ? listUsableEnrollmentTokens() : null]);
  const now = Date.now();
  return (
    <>
      <h1>Agents</h1>
      {manage && (
        <FormPanel
          title="Add an agent"
          action={createEnrollmentToken}
          submitLabel="Get an install command"
          testId="enroll-form"
          intro={
            <p className="muted small">
              A token enrolls one agent. The install command downloads the agent from this Tierwise API, enrolls it with the token and starts it; the agent then
              reports its volumes and health here.
            </p>
          }
        >
          <label>
            Name (optional)
            <input name="name" maxLength={100} placeholder="rack 12" />
          </label>
          <label>
            Valid for
            <select name="lifetime" defaultValue="86400">
              {Object.entries(LIFETIMES).map(([seconds, label]) => (
                <option key={seconds} value={seconds}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        </FormPanel>
      )}
      {tokens && tokens.data.length > 0 && (
        <details className="panel">
          <summary>{tokens.data.length} unused enrollment tokens</summary>
          <ul className="plain-list" data-testid="usable-tokens">
            {tokens.data.map((t) => (
              <li key={t.id} data-testid="token-row">
                <code>{t.token_prefix}…</code> {t.name}, expires {formatTimestamp(t.expires_at)} <RowAction action={deleteEnrollmentToken} id={t.id} label="Delete" danger />
              </li>
            ))}
          </ul>
        </details>
      )}
      <FilterLinks path={PATH} name="status" current={query.status === "active" ? "" : query.status} values={{ "": "Active", revoked: "Revoked", all: "All" }} label="Show" />
      <DataTable
        testId="agents"
        columns={["Agent", "Health", "Last report", "Last telemetry", "Version", "#Uptime", "#Volumes", "#Tier used", "Last error", ...(manage ? ["Actions"] : [])]}
        empty={`No ${query.status === "all" ? "" : `${query.status} `}agent${manage && query.status === "active" ? ": add one above" : ""}.`}
        rows={page.data.map((a) => (
          <tr key={a.id} data-testid="agent-row" data-agent-id={a.id} data-status={a.revoked_at ? "revoked" : "active"}>
            <td>
              {a.name}
              {a.host_id && (
                <div className="muted small">
                  host {a.host_display_name ? <>{a.host_display_name} (<code>{a.host_id}</code>)</> : <code>{a.host_id}</code>}
                </div>
              )}
            </td>
            <td>
              <HealthBadge agent={a} now={now} />
            </td>
            <td>{a.health.last_report_at ? formatTimestamp(a.health.last_report_at) : "—"}</td>
            <td>{a.health.last_telemetry_at ? formatTimestamp(a.health.last_telemetry_at) : "—"}</td>
            <td>{a.version ?? "—"}</td>
            <td className="num">{a.health.uptime_seconds == null ? "—" : formatDuration(a.health.uptime_seconds)}</td>
            <td className="num">{a.health.volume_count ?? "—"}</td>
            <td className="num">{a.health.tier_used_bytes == null ? "—" : `${formatBytes(a.health.tier_used_bytes)} of ${formatBytes(a.health.tier_capacity_bytes)}`}</td>
            <td className="wrap">
              {a.health.last_error ? (
                <>
                  {a.health.last_error} <span className="muted small">{formatTimestamp(a.health.last_error_at)}</span>
                </>
              ) : (
                "—"
              )}
            </td>
            {manage && <td>{!a.revoked_at && <RowAction action={revokeAgent} id={a.id} label="Revoke" danger />}</td>}
          </tr>
        ))}
      />
      <CursorPager path={PATH} filters={{ status: query.status }} page={query} nextCursor={page.next_cursor} label="Agent pages" />
    </>
  );
});
