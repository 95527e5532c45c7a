import type { VolumeSort } from "@/lib/api-schemas";
import { CursorPager } from "./CursorPager";

/** Cursor pagination for /volumes, keeping the sort (see CursorPager). */
export function Pager({ sort, cursor, prev, nextCursor }: { sort: VolumeSort; cursor: string | null; prev: string[]; nextCursor: string | null }) {
  return <CursorPager path="/volumes" filters={{ sort }} page={{ cursor: cursor ?? undefined, prev }} nextCursor={nextCursor} label="Volume pages" />;
}
