import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import type { ReactNode } from "react";
import { logOut, switchOrganization } from "./(auth)/actions";
import { NavLinks } from "@/components/NavLinks";
import { NavSearch } from "@/components/NavSearch";
import { ThemeToggle } from "@/components/ThemeToggle";
import { can } from "@/lib/permissions";
import { NAV } from "@/lib/routes";
import { NONCE_HEADER } from "@/lib/security-headers";
import { optionalSession } from "@/lib/session";
import { THEME_KEY } from "@/lib/theme";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Tierwise", template: "%s · Tierwise" },
  description: "Storage I/O analytics and tier right-sizing",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1, colorScheme: "light dark" };

/** Applies the saved colour scheme before the first paint (no flash of the other scheme). */
const THEME_SCRIPT = `try{var t=localStorage.getItem(${JSON.stringify(THEME_KEY)});if(t==="light"||t==="dark")document.documentElement.dataset.theme=t}catch(e){}`;

/**
 * The shell: a skip link, the header (product, the main navigation the role may see, the search
 * box (volumes and hosts by name or id) when the role may read volumes, the organization (a
 * switcher when the user belongs to several) and user, sign-out, the colour-scheme toggle), then
 * the page. Signed out, only the product name shows.
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  const session = await optionalSession();
  const nonce = (await headers()).get(NONCE_HEADER) ?? undefined;
  const items = session ? NAV.filter((item) => can(session.role, item.permission)) : [];
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body>
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        <header className="topbar">
          <Link href="/" className="brand">
            Tierwise
          </Link>
          {session && <NavLinks items={items.map(({ href, label }) => ({ href, label }))} label="Main" />}
          {session && can(session.role, "volumes.read") && <NavSearch />}
          <div className="topbar__end">
            {session && (
              <span className="whoami" data-testid="whoami" data-role={session.role}>
                {session.organizations.length > 1 ? (
                  <form action={switchOrganization} className="org-switch">
                    <select name="organization_id" defaultValue={session.organization.id} aria-label="Organization">
                      {session.organizations.map((o) => (
                        <option key={o.id} value={o.id}>
                          {o.name} ({o.role})
                        </option>
                      ))}
                    </select>
                    <button type="submit" className="button button--quiet" aria-label="Switch organization">
                      Switch
                    </button>
                  </form>
                ) : (
                  <span className="whoami__org">{session.organization.name}</span>
                )}
                <span className="muted">
                  {session.user.display_name} · {session.role}
                </span>
              </span>
            )}
            <ThemeToggle />
            {session && (
              <form action={logOut}>
                <button type="submit" className="button button--quiet" data-testid="logout">
                  Sign out
                </button>
              </form>
            )}
          </div>
        </header>
        <main className="page" id="main" tabIndex={-1}>
          {children}
        </main>
      </body>
    </html>
  );
}
