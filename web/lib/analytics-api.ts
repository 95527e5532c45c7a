import "server-only";
import { getDocument, getJson } from "./api-client";
import {
  Benchmarks,
  ClusterPage,
  ClusterWorkingSet,
  HostWorkingSet,
  Overview,
  Policy,
  PolicyEffect,
  RecommendationHistory,
  RecommendationItem,
  RecommendationPage,
  Series,
  WorkingSetHistory,
} from "./analytics-schemas";
import type { TimeRange } from "./time-range";
import { Workload } from "./workload-schemas";

/** Points a chart asks for: about its pixel width in the portal's layout (max 1120 px wide). */
export const CHART_WIDTH = 720;

const range = (r: TimeRange) => ({ from: r.from.toISOString(), to: r.to.toISOString() });

/**
 * A scope's series downsampled by the API to CHART_WIDTH points (GET /v1/series).
 * @param options sizes: include the block-size cells; direction/sizeBins: the custom breakdown;
 *   width: points wanted (default CHART_WIDTH; a heatmap wants fewer, wider cells).
 */
export function getSeries(
  scope: "volume" | "host" | "tenant",
  scopeId: string | null,
  r: TimeRange,
  options: { sizes?: boolean; direction?: string; sizeBins?: string[]; width?: number } = {},
): Promise<Series> {
  const query = new URLSearchParams({ scope, ...range(r), width: String(options.width ?? CHART_WIDTH) });
  if (scopeId) query.set("scope_id", scopeId);
  if (options.sizes) query.set("sizes", "true");
  if (options.direction) query.set("direction", options.direction);
  if (options.sizeBins?.length) query.set("size_bins", options.sizeBins.join(","));
  return getJson(`/v1/series?${query}`, Series);
}

/** The fleet over a range (GET /v1/fleet/overview). */
export function getOverview(r: TimeRange): Promise<Overview> {
  return getJson(`/v1/fleet/overview?${new URLSearchParams({ ...range(r), top: "8" })}`, Overview);
}

/** A volume's or cluster's working set size over a range (window 1h estimates). */
export function getWorkingSetHistory(of: "volumes" | "clusters", id: string, r: TimeRange): Promise<WorkingSetHistory> {
  const query = new URLSearchParams({ ...range(r), width: String(CHART_WIDTH), window: "1h" });
  return getJson(`/v1/${of}/${encodeURIComponent(id)}/working-set/history?${query}`, WorkingSetHistory);
}

/** The tenant's clusters (GET /v1/clusters, first page of 100). */
export function listClusters(): Promise<ClusterPage> {
  return getJson("/v1/clusters?limit=100", ClusterPage);
}

/** A cluster's tier and its working set and MRC per window (GET /v1/clusters/{id}/working-set). */
export function getCluster(clusterId: string): Promise<ClusterWorkingSet> {
  return getJson(`/v1/clusters/${encodeURIComponent(clusterId)}/working-set`, ClusterWorkingSet);
}

/** The tier a host's volumes share: its merged stream per window and recommendation (GET /v1/hosts/{id}/working-set). */
export function getHostWorkingSet(hostId: string): Promise<HostWorkingSet> {
  return getJson(`/v1/hosts/${encodeURIComponent(hostId)}/working-set`, HostWorkingSet);
}

/** The tenant's recommendations, newest first (first page). */
export function listRecommendations(): Promise<RecommendationPage> {
  return getJson("/v1/recommendations?limit=100", RecommendationPage);
}

/** A volume's current recommendation with its status. */
export function getRecommendation(volumeId: string): Promise<RecommendationItem> {
  return getJson(`/v1/recommendations/${encodeURIComponent(volumeId)}`, RecommendationItem);
}

/** A volume's past predictions against the hit ratio measured while each ran. */
export function getRecommendationHistory(volumeId: string): Promise<RecommendationHistory> {
  return getJson(`/v1/volumes/${encodeURIComponent(volumeId)}/recommendations/history?limit=50`, RecommendationHistory);
}

/** A volume's desired cache policy and the version its agent applied; null when it has none. */
export async function getPolicy(volumeId: string): Promise<Policy | null> {
  try {
    return await getJson(`/v1/volumes/${encodeURIComponent(volumeId)}/policy`, Policy);
  } catch (err) {
    if (err instanceof Error && "code" in err && err.code === "not_found") return null;
    throw err;
  }
}

/**
 * How the volume's latency and CPU moved across its latest applied policy change (GET
 * /v1/volumes/{id}/policy-effect); null when its agent applied no policy yet (the api's 404).
 */
export async function getPolicyEffect(volumeId: string): Promise<PolicyEffect | null> {
  try {
    return await getJson(`/v1/volumes/${encodeURIComponent(volumeId)}/policy-effect`, PolicyEffect);
  } catch (err) {
    if (err instanceof Error && "code" in err && err.code === "not_found") return null;
    throw err;
  }
}

/** Where the tenant stands in each fleet cohort (GET /v1/benchmarks). */
export function getBenchmarks(): Promise<Benchmarks> {
  return getJson("/v1/benchmarks", Benchmarks);
}

/** A volume's vscsiStats histograms merged over a range (GET /v1/volumes/{id}/workload; docs/workload.md). */
export function getWorkload(volumeId: string, r: TimeRange): Promise<Workload> {
  return getJson(`/v1/volumes/${encodeURIComponent(volumeId)}/workload?${new URLSearchParams(range(r))}`, Workload);
}

/**
 * The fio job file of the volume's measured mix over a range (GET /v1/volumes/{id}/fio-job:
 * text/plain, an attachment), paced at the measured IOPS or unpaced, body unread for the
 * download route to stream on.
 */
export function getFioJob(volumeId: string, r: TimeRange, paced: boolean): Promise<Response> {
  const query = new URLSearchParams({ ...range(r), rate: String(paced) });
  return getDocument(`/v1/volumes/${encodeURIComponent(volumeId)}/fio-job?${query}`, "text/plain");
}
