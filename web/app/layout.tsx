import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Tierwise", template: "%s · Tierwise" },
  description: "Storage I/O analytics and tier right-sizing",
};

/** Page frame: header with the product name and navigation, then the page. */
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="topbar">
          <Link href="/volumes" className="brand">
            Tierwise
          </Link>
          <nav aria-label="Main">
            <Link href="/volumes">Volumes</Link>
          </nav>
        </header>
        <main className="page">{children}</main>
      </body>
    </html>
  );
}
