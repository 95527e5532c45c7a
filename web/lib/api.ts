import "server-only";
import { FleetSummary, SearchResults, VolumeDetail, VolumePage, VolumePolicy, type VolumeSort } from "./api-schemas";
import { getJson } from "./api-client";
import { PortalError } from "./errors";

/** Fleet totals of the tenant the portal key belongs to (GET /v1/fleet/summary). */
export function getFleetSummary(): Promise<FleetSummary> {
  return getJson("/v1/fleet/summary", FleetSummary);
}

/**
 * One page of volumes, sorted descending by `sort` (GET /v1/volumes).
 * @param cursor  opaque next_cursor of the previous page, or null for the first page.
 */
export function listVolumes(sort: VolumeSort, cursor: string | null, limit = 50): Promise<VolumePage> {
  const query = new URLSearchParams({ limit: String(limit), sort });
  if (cursor) query.set("cursor", cursor);
  return getJson(`/v1/volumes?${query}`, VolumePage);
}

/** Everything the volume page draws (GET /v1/volumes/:volumeId); not_found when unknown. */
export function getVolume(volumeId: string): Promise<VolumeDetail> {
  return getJson(`/v1/volumes/${encodeURIComponent(volumeId)}`, VolumeDetail);
}

/** The volume's desired policy and what its agent applied (GET /v1/volumes/:volumeId/policy); null before any policy is set. */
export async function getVolumePolicy(volumeId: string): Promise<VolumePolicy | null> {
  try {
    return await getJson(`/v1/volumes/${encodeURIComponent(volumeId)}/policy`, VolumePolicy);
  } catch (err) {
    if (err instanceof PortalError && err.code === "not_found") return null;
    throw err;
  }
}

/** The volumes and hosts whose name contains `q` or whose id starts with it, best first (GET /v1/search). */
export function search(q: string, limit = 50): Promise<SearchResults> {
  return getJson(`/v1/search?${new URLSearchParams({ q, limit: String(limit) })}`, SearchResults);
}
