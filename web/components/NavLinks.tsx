"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/**
 * Links of a navigation bar; the one of the current page (or of its section, e.g. /volumes/…)
 * is marked aria-current="page".
 */
export function NavLinks({ items, label }: { items: { href: string; label: string }[]; label: string }) {
  const pathname = usePathname();
  const current = (href: string) => (href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`));
  return (
    <nav aria-label={label}>
      <ul className="nav-list">
        {items.map((item) => (
          <li key={item.href}>
            <Link href={item.href} aria-current={current(item.href) ? "page" : undefined}>
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
