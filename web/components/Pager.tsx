import Link from "next/link";
import type { VolumeSort } from "@/lib/api-schemas";

/**
 * Cursor pagination for /volumes. The API only gives a next cursor, so the cursors of the
 * pages before the current one travel in the URL (`prev`, oldest first) to offer "Previous".
 * Renders nothing when everything fits on one page.
 */
export function Pager({ sort, cursor, prev, nextCursor }: { sort: VolumeSort; cursor: string | null; prev: string[]; nextCursor: string | null }) {
  const href = (c: string | null, trail: string[]) => {
    const query = new URLSearchParams({ sort });
    if (c) query.set("cursor", c);
    for (const p of trail) query.append("prev", p);
    return `/volumes?${query}`;
  };
  if (!cursor && !nextCursor) return null;
  const page = cursor ? prev.length + 2 : 1;
  return (
    <nav className="pager" aria-label="Volume pages">
      {cursor ? <Link href={href(prev.at(-1) ?? null, prev.slice(0, -1))}>← Previous</Link> : <span className="muted">← Previous</span>}
      <span>Page {page}</span>
      {nextCursor ? <Link href={href(nextCursor, cursor ? [...prev, cursor] : [])}>Next →</Link> : <span className="muted">Next →</span>}
    </nav>
  );
}
