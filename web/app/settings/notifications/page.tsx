import type { Metadata } from "next";
import { ActionForm } from "@/components/ActionForm";
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
  return (
    <>
      <h1>Notifications</h1>
      <div className="section-head">
        <h2>Channels</h2>
      </div>
      {channels.data.length === 0 ? (
        <p className="muted">No channel yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="table" data-testid="channels">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Kind</th>
                <th scope="col">Target</th>
                <th scope="col">Digest</th>
                <th scope="col">State</th>
                {manage && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {channels.data.map((c) => (
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
                      <ActionForm action={setChannelEnabled} submitLabel={c.enabled ? "Pause" : "Resume"} className="form--row">
                        <input type="hidden" name="id" value={c.id} />
                        <input type="hidden" name="enabled" value={String(!c.enabled)} />
                      </ActionForm>{" "}
                      <ActionForm action={deleteChannel} submitLabel="Delete" className="form--row" danger>
                        <input type="hidden" name="id" value={c.id} />
                      </ActionForm>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {manage && (
        <section className="panel" aria-labelledby="new-channel-heading" style={{ marginTop: "1rem" }}>
          <h2 id="new-channel-heading">New channel</h2>
          <ActionForm action={createChannel} submitLabel="Add channel" className="form form--inline" testId="create-channel-form">
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
          </ActionForm>
        </section>
      )}

      <div className="section-head">
        <h2>Routes</h2>
      </div>
      {routes.data.length === 0 ? (
        <p className="muted">No route: nothing is sent.</p>
      ) : (
        <div className="table-scroll">
          <table className="table" data-testid="routes">
            <thead>
              <tr>
                <th scope="col">Channel</th>
                <th scope="col">Events</th>
                <th scope="col">Minimum severity</th>
                {manage && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {routes.data.map((r) => (
                <tr key={r.id} data-testid="route-row">
                  <td>
                    {r.channel_name} <span className="muted">({r.channel_kind})</span>
                  </td>
                  <td className="wrap">{r.event_kinds.join(", ")}</td>
                  <td>{r.min_severity}</td>
                  {manage && (
                    <td>
                      <ActionForm action={deleteRoute} submitLabel="Delete" className="form--row" danger>
                        <input type="hidden" name="id" value={r.id} />
                      </ActionForm>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {manage && channels.data.length > 0 && (
        <section className="panel" aria-labelledby="new-route-heading" style={{ marginTop: "1rem" }}>
          <h2 id="new-route-heading">New route</h2>
          <ActionForm action={createRoute} submitLabel="Add route" className="form form--inline" testId="create-route-form">
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
          </ActionForm>
        </section>
      )}
    </>
  );
});
