import type { Metadata } from "next";
import { DataTable, FormPanel, RowAction } from "@/components/AdminBlocks";
import { EventKind, Severity } from "@/lib/account-schemas";
import { listChannels, listRoutes } from "@/lib/accounts-api";
import { definePage } from "@/lib/page";
import { can } from "@/lib/permissions";
import { createChannel, createRoute, deleteChannel, deleteRoute, setChannelEnabled } from "../actions";

export const metadata: Metadata = { title: "Notifications" };

/**
 * /settings/notifications: channels (e-mail, Slack webhook, Slack bot; secrets never come
 * back, only a hint) and the routes that send event kinds of a minimum severity to them
 * (docs/notifications.md). Admins add, pause and delete.
 */
export default definePage({ permission: "notifications.read" }, async ({ session }) => {
  const [channels, routes] = await Promise.all([listChannels(), listRoutes()]);
  const manage = can(session.role, "notifications.write");
  const actions = manage ? ["Actions"] : [];
  return (
    <>
      <h1>Notifications</h1>
      <h2 className="section-head">Channels</h2>
      <DataTable
        testId="channels"
        columns={["Name", "Kind", "Target", "Digest", "State", ...actions]}
        empty="No channel yet."
        rows={channels.data.map((c) => (
          <tr key={c.id} data-testid="channel-row" data-name={c.name}>
            <td>{c.name}</td>
            <td>{c.kind}</td>
            <td>
              <code>{c.target ?? c.target_hint ?? "—"}</code>
            </td>
            <td>{c.kind === "email" ? `${c.digest} (${c.digest_timezone})` : "—"}</td>
            <td>
              {c.unsubscribed_at ? (
                <span className="badge badge--bad">unsubscribed</span>
              ) : c.enabled ? (
                <span className="badge badge--ok">enabled</span>
              ) : (
                <span className="badge badge--muted">paused</span>
              )}
            </td>
            {manage && (
              <td>
                <RowAction action={setChannelEnabled} id={c.id} label={c.enabled ? "Pause" : "Resume"}>
                  <input type="hidden" name="enabled" value={String(!c.enabled)} />
                </RowAction>{" "}
                <RowAction action={deleteChannel} id={c.id} label="Delete" danger />
              </td>
            )}
          </tr>
        ))}
      />
      {manage && (
        <FormPanel title="New channel" action={createChannel} submitLabel="Add channel" testId="create-channel-form">
          <label>
            Kind
            <select name="kind" defaultValue="email">
              <option value="email">E-mail</option>
              <option value="slack-webhook">Slack incoming webhook</option>
              <option value="slack-bot">Slack bot</option>
            </select>
          </label>
          <label>
            Name
            <input name="name" required maxLength={100} placeholder="on-call" />
          </label>
          <label>
            Target
            <input name="target" required maxLength={2000} placeholder="ops@example.com, webhook URL or #channel" />
          </label>
          <label>
            Bot token (Slack bot only)
            <input name="secret" type="password" autoComplete="off" placeholder="xoxb-…" />
          </label>
        </FormPanel>
      )}

      <h2 className="section-head">Routes</h2>
      <DataTable
        testId="routes"
        columns={["Channel", "Events", "Minimum severity", ...actions]}
        empty="No route: nothing is sent."
        rows={routes.data.map((r) => (
          <tr key={r.id} data-testid="route-row">
            <td>
              {r.channel_name} <span className="muted">({r.channel_kind})</span>
            </td>
            <td className="wrap">{r.event_kinds.join(", ")}</td>
            <td>{r.min_severity}</td>
            {manage && (
              <td>
                <RowAction action={deleteRoute} id={r.id} label="Delete" danger />
              </td>
            )}
          </tr>
        ))}
      />
      {manage && channels.data.length > 0 && (
        <FormPanel title="New route" action={createRoute} submitLabel="Add route" testId="create-route-form">
          <label>
            Channel
            <select name="channel_id" required>
              {channels.data.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name} ({c.kind})
                </option>
              ))}
            </select>
          </label>
          <fieldset className="checks">
            <legend>Events</legend>
            {EventKind.options.map((kind) => (
              <label key={kind} className="check">
                <input type="checkbox" name="event_kinds" value={kind} defaultChecked={kind.startsWith("recommendation")} /> {kind}
              </label>
            ))}
          </fieldset>
          <label>
            Minimum severity
            <select name="min_severity" defaultValue="info">
              {Severity.options.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
        </FormPanel>
      )}
    </>
  );
});
