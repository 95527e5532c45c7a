import type { Metadata } from "next";
import { DataTable, FormPanel, RowAction } from "@/components/AdminBlocks";
import { listInvitations, listMembers } from "@/lib/accounts-api";
import { formatTimestamp } from "@/lib/format";
import { definePage } from "@/lib/page";
import { can, Role } from "@/lib/permissions";
import { changeRole, inviteMember, removeMember, revokeInvitation } from "../actions";

export const metadata: Metadata = { title: "Members" };

/** A role picker (owner offered only to owners), the current role preselected. */
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
  const actions = manage ? ["Actions"] : [];
  return (
    <>
      <h1>Members</h1>
      <DataTable
        testId="members"
        columns={["Name", "E-mail", "Role", "Joined", ...actions]}
        empty="No member."
        rows={members.map((m) => (
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
                    <RowAction action={changeRole} id={m.user_id} label="Change role">
                      <RoleSelect value={m.role} label={`Role of ${m.email}`} allowOwner={owner} />
                    </RowAction>{" "}
                    <RowAction action={removeMember} id={m.user_id} label="Remove" danger />
                  </>
                )}
              </td>
            )}
          </tr>
        ))}
      />

      <h2 className="section-head">Pending invitations</h2>
      <DataTable
        testId="invitations"
        columns={["E-mail", "Role", "Expires", ...actions]}
        empty="No pending invitation."
        rows={invitations.map((i) => (
          <tr key={i.id} data-testid="invitation-row" data-email={i.email}>
            <td>{i.email}</td>
            <td>{i.role}</td>
            <td>{formatTimestamp(i.expires_at)}</td>
            {manage && (
              <td>
                <RowAction action={revokeInvitation} id={i.id} label="Revoke" danger />
              </td>
            )}
          </tr>
        ))}
      />

      {manage && (
        <FormPanel title="Invite someone" action={inviteMember} submitLabel="Send invitation" testId="invite-form">
          <label>
            E-mail address
            <input name="email" type="email" required maxLength={254} />
          </label>
          <label>
            Role
            <RoleSelect label="Role" allowOwner={owner} />
          </label>
        </FormPanel>
      )}
    </>
  );
});
