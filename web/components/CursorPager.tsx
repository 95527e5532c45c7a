import Link from "next/link";
import { pageHref, type PageQuery } from "@/lib/paging";

/**
 * Previous/next links of a cursor-paginated list (lib/paging.ts). Renders nothing when
 * everything fits on one page.
 * @param path  the list's page, e.g. "/settings/audit-log"; `filters` are kept on every link.
 */
export function CursorPager({ path, filters = {}, page, nextCursor, label }: { path: string; filters?: Record<string, string | undefined>; page: PageQuery; nextCursor: string | null; label: string }) {
  const { cursor, prev } = page;
  if (!cursor && !nextCursor) return null;
  const number = cursor ? prev.length + 2 : 1;
  return (
    <nav className="pager" aria-label={label}>
      {cursor ? <Link href={pageHref(path, filters, prev.at(-1) ?? null, prev.slice(0, -1))}>← Previous</Link> : <span className="muted">← Previous</span>}
      <span>Page {number}</span>
      {nextCursor ? (
        <Link href={pageHref(path, filters, nextCursor, cursor ? [...prev, cursor] : [])} data-testid="next-page">
          Next →
        </Link>
      ) : (
        <span className="muted">Next →</span>
      )}
    </nav>
  );
}
