import type { ReactNode } from "react";
import { NavLinks } from "@/components/NavLinks";
import { can } from "@/lib/permissions";
import { SETTINGS_NAV } from "@/lib/routes";
import { optionalSession } from "@/lib/session";

/** /settings/*: the heading and the sections the role may open. */
export default async function SettingsLayout({ children }: { children: ReactNode }) {
  const session = await optionalSession();
  const items = session ? SETTINGS_NAV.filter((item) => can(session.role, item.permission)).map(({ href, label }) => ({ href, label })) : [];
  return (
    <>
      <div className="subnav">
        <NavLinks items={items} label="Settings" />
      </div>
      {children}
    </>
  );
}
