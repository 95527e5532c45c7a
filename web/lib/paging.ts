import { z } from "zod";

/**
 * Cursor paging in the URL. The API only hands out a next cursor, so the cursors of the pages
 * before the current one travel in the query (`prev`, oldest first) to offer "Previous".
 */
export const PageQuery = z.object({
  cursor: z.string().min(1).max(512).optional(),
  prev: z
    .union([z.string().max(512), z.array(z.string().max(512)).max(100)])
    .optional()
    .transform((v) => (v == null ? [] : Array.isArray(v) ? v : [v])),
});
export type PageQuery = z.infer<typeof PageQuery>;

/** The href of a page of `path` with the `filters` kept, at `cursor`, with the trail of earlier cursors. */
export function pageHref(path: string, filters: Record<string, string | undefined>, cursor: string | null, trail: string[]): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value);
  if (cursor) query.set("cursor", cursor);
  for (const p of trail) query.append("prev", p);
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}
