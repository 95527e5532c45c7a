import type { Metadata } from "next";
import { z } from "zod";
import { FleetTotals } from "@/components/FleetTotals";
import { Pager } from "@/components/Pager";
import { VolumeTable } from "@/components/VolumeTable";
import { getFleetSummary, listVolumes } from "@/lib/api";
import { VolumeSort } from "@/lib/api-schemas";
import { PortalError } from "@/lib/errors";
import { definePage } from "@/lib/page";

export const metadata: Metadata = { title: "Volumes" };

/** Query of /volumes: sort key, the current page's cursor, the cursors of earlier pages. */
const VolumesQuery = z.object({
  sort: VolumeSort.default("ops"),
  cursor: z.string().min(1).optional(),
  prev: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (v == null ? [] : Array.isArray(v) ? v : [v])),
});

/** /volumes: fleet totals and the sortable, paginated volume table. */
export default definePage({ permission: "volumes.read" }, async ({ searchParams }) => {
  const query = VolumesQuery.safeParse(await searchParams);
  if (!query.success) throw new PortalError("bad_request", z.prettifyError(query.error));
  const { sort, cursor, prev } = query.data;
  const [fleet, page] = await Promise.all([getFleetSummary(), listVolumes(sort, cursor ?? null)]);
  return (
    <>
      <h1>Volumes</h1>
      <FleetTotals fleet={fleet} />
      <VolumeTable volumes={page.data} sort={sort} />
      <Pager sort={sort} cursor={cursor ?? null} prev={prev} nextCursor={page.next_cursor} />
    </>
  );
});
