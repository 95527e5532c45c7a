import type { Metadata } from "next";
import { ActionForm } from "@/components/ActionForm";
import { listInvitations, listMembers } from "@/lib/accounts-api";
import { formatTimestamp } from "@/lib/format";
import { definePage } from "@/lib/page";
import { can, Role } from "@/lib/permissions";
import { changeRole, inviteMember, removeMember, revokeInvitation } from "../actions";

export const metadata: Metadata = { title: "Members" };

/** A role picker; `name` and the current role preselected. */
function RoleSelect({ value, label, allowOwner }: { value?: string; label: string; allowOwner: boolean }) {
  return (
    <select name="role" defaultValue={value ?? "viewer"} aria-label={label}>
      {Role.options
        .filter((r) => allowOwner || r !== "owner")
        .map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
    </select>
  );
}

/**
 * /settings/members: the members with their roles and the pending invitations. Admins and
 * owners invite, change roles and remove (only owners touch the owner role; the API enforces it
 * and its refusal shows next to the row).
 */
export default definePage({ permission: "members.read" }, async ({ session }) => {
  const [{ members }, { invitations }] = await Promise.all([listMembers(), listInvitations()]);
  const manage = can(session.role, "members.write");
  const owner = session.role === "owner";
  return (
    <>
      <h1>Members</h1>
      <div className="table-scroll">
        <table className="table" data-testid="members">
          <caption className="sr-only">Members of {session.organization.name}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              {manage && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.user_id} data-testid="member-row" data-email={m.email} data-role={m.role}>
                <td>{m.display_name}</td>
                <td>{m.email}</td>
                <td>{m.role}</td>
                <td>{formatTimestamp(m.joined_at)}</td>
                {manage && (
                  <td>
                    {m.user_id === session.user.id ? (
                      <span className="muted">you</span>
                    ) : (
                      <>
                        <ActionForm action={changeRole} submitLabel="Change role" className="form--row">
                          <input type="hidden" name="id" value={m.user_id} />
                          <RoleSelect value={m.role} label={`Role of ${m.email}`} allowOwner={owner} />
                        </ActionForm>{" "}
                        <ActionForm action={removeMember} submitLabel="Remove" className="form--row" danger>
                          <input type="hidden" name="id" value={m.user_id} />
                        </ActionForm>
                      </>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <div className="section-head">
        <h2>Pending invitations</h2>
      </div>
      {invitations.length === 0 ? (
        <p className="muted">No pending invitation.</p>
      ) : (
        <div className="table-scroll">
          <table className="table" data-testid="invitations">
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
                <th scope="col">Expires</th>
                {manage && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {invitations.map((i) => (
                <tr key={i.id} data-testid="invitation-row" data-email={i.email}>
                  <td>{i.email}</td>
                  <td>{i.role}</td>
                  <td>{formatTimestamp(i.expires_at)}</td>
                  {manage && (
                    <td>
                      <ActionForm action={revokeInvitation} submitLabel="Revoke" className="form--row" danger>
                        <input type="hidden" name="id" value={i.id} />
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
        <section className="panel" aria-labelledby="invite-heading" style={{ marginTop: "1.25rem" }}>
          <h2 id="invite-heading">Invite someone</h2>
          <ActionForm action={inviteMember} submitLabel="Send invitation" className="form form--inline" testId="invite-form">
            <label>
              E-mail address
              <input name="email" type="email" required maxLength={254} />
            </label>
            <label>
              Role
              <RoleSelect label="Role" allowOwner={owner} />
            </label>
          </ActionForm>
        </section>
      )}
    </>
  );
});
