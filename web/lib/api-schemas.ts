import { EVICTIONS } from "@tierwise/common/contracts";
import { z } from "zod";
import { IO_LENGTH_LABELS } from "./block-size-bins";

/**
 * Zod schemas for every Tierwise API response the portal reads (the contract of
 * services/api: /v1/fleet/summary, /v1/volumes, /v1/volumes/:volumeId).
 * Units: counts in I/Os, sizes in bytes, ratios in 0..1, timestamps ISO 8601.
 * Bigint columns arrive as JSON numbers (cast to float8 by the API).
 */

const Count = z.number().nonnegative();
const Bytes = z.number().nonnegative();
const Ratio = z.number().min(0).max(1);
const Timestamp = z.iso.datetime({ offset: true });

/** Body of every API error (HTTP 4xx/5xx). */
export const ApiErrorBody = z.object({
  code: z.string(),
  message: z.string(),
  request_id: z.string().nullish(),
});

/** GET /v1/fleet/summary: totals over every volume of the tenant. */
export const FleetSummary = z.object({
  volumes: Count,
  hosts: Count,
  read_ops: Count,
  write_ops: Count,
  read_bytes: Bytes,
  write_bytes: Bytes,
  cache_hits: Count,
  cache_misses: Count,
  hit_ratio: Ratio.nullable(),
  wss_bytes: Bytes.nullable(),
});
export type FleetSummary = z.infer<typeof FleetSummary>;

/** Sort keys GET /v1/volumes accepts (descending). */
export const VolumeSort = z.enum(["ops", "wss", "hit_ratio"]);
export type VolumeSort = z.infer<typeof VolumeSort>;

/**
 * Where a volume's figures come from: measured by the Tierwise agent, or imported from VMware
 * `vscsiStats -p all -c` output (docs/workload.md; such a volume has no tier, so no hit ratio,
 * working set or recommendation).
 */
export const VolumeSource = z.enum(["agent", "vscsistats"]);
export type VolumeSource = z.infer<typeof VolumeSource>;

/** One row of GET /v1/volumes. */
export const VolumeSummary = z.object({
  volume_id: z.string(),
  host_id: z.string(),
  display_name: z.string().nullable(),
  host_display_name: z.string().nullable(),
  source: VolumeSource,
  read_ops: Count,
  write_ops: Count,
  read_bytes: Bytes,
  write_bytes: Bytes,
  hit_ratio: Ratio.nullable(),
  read_hit_ratio: Ratio.nullable(),
  wss_bytes: Bytes.nullable(),
  recommended_tier_bytes: Bytes.nullable(),
  last_seen: Timestamp,
});
export type VolumeSummary = z.infer<typeof VolumeSummary>;

/** GET /v1/volumes: one page, and the opaque cursor of the next page (null on the last). */
export const VolumePage = z.object({
  data: z.array(VolumeSummary),
  next_cursor: z.string().nullable(),
});
export type VolumePage = z.infer<typeof VolumePage>;

/**
 * One block-size histogram bin (vscsiStats ioLength bins, read and write apart):
 * I/Os of size <= bin_upper_bytes and > the previous bin's upper bound; null = the open last bin.
 */
export const BlockSizeBin = z.object({
  direction: z.enum(["read", "write"]),
  bin_label: z.enum(IO_LENGTH_LABELS),
  bin_upper_bytes: Bytes.nullable(),
  ops: Count,
  bytes: Bytes,
});
export type BlockSizeBin = z.infer<typeof BlockSizeBin>;

/** Working set size (distinct 4 KiB blocks x 4096) estimated from SHARDS samples. */
export const WorkingSet = z.object({
  wss_bytes: Bytes,
  wss_read_bytes: Bytes,
  wss_write_bytes: Bytes,
  sampling_rate: z.number().positive().max(1),
  sampled_references: Count,
  window_start: Timestamp,
  window_end: Timestamp,
});
export type WorkingSet = z.infer<typeof WorkingSet>;

/** One point of an LRU miss ratio curve. */
export const MrcPoint = z.object({ cache_bytes: Bytes, miss_ratio: Ratio });
export type MrcPoint = z.infer<typeof MrcPoint>;

/** One eviction policy's miss ratio curve (miniature simulations), on the sizes of the LRU one. */
export const EvictionCurve = z.object({ eviction: z.enum(EVICTIONS), points: z.array(MrcPoint) });
export type EvictionCurve = z.infer<typeof EvictionCurve>;

/**
 * LRU miss ratio curve, points in increasing cache_bytes; a volume's also has every eviction
 * policy's (`curves`, LRU's among them), a cluster's none.
 */
export const MissRatioCurve = z.object({
  method: z.string(),
  sampling_rate: z.number().positive().max(1),
  points: z.array(MrcPoint),
  curves: z.array(EvictionCurve).default([]),
});
export type MissRatioCurve = z.infer<typeof MissRatioCurve>;

/** The current tier recommendation for a volume, with the inputs it was derived from. */
export const Recommendation = z.object({
  tier_bytes: Bytes,
  media: z.enum(["ram", "nvme"]),
  policy: z.string(),
  predicted_hit_ratio: Ratio,
  achievable_hit_ratio: Ratio,
  target_hit_ratio: Ratio,
  explanation: z.string(),
  inputs: z.record(z.string(), z.unknown()),
  created_at: Timestamp,
});
export type Recommendation = z.infer<typeof Recommendation>;

/** GET /v1/volumes/:volumeId/policy: the desired cache policy and what the agent applied (docs/policies.md). */
export const VolumePolicy = z.object({
  volume_id: z.string(),
  version: z.number().int(),
  mode: z.enum(["write-through", "write-back"]),
  write_back_copies: z.number().int().nullable(),
  tier_bytes: Bytes,
  media: z.enum(["ram", "nvme"]),
  eviction: z.string(),
  source: z.enum(["manual", "recommendation"]),
  updated_at: Timestamp,
  applied_version: z.number().int().nullable(),
  applied_at: Timestamp.nullable(),
  applied_error: z.string().nullable(),
  in_sync: z.boolean(),
});
export type VolumePolicy = z.infer<typeof VolumePolicy>;

/** GET /v1/volumes/:volumeId. */
export const VolumeDetail = z.object({
  volume_id: z.string(),
  host_id: z.string(),
  display_name: z.string().nullable(),
  host_display_name: z.string().nullable(),
  source: VolumeSource,
  io: z.object({
    read_ops: Count,
    write_ops: Count,
    read_bytes: Bytes,
    write_bytes: Bytes,
    first_interval: Timestamp.nullable(),
    last_interval: Timestamp.nullable(),
  }),
  cache: z.object({
    hits: Count,
    misses: Count,
    hit_ratio: Ratio.nullable(),
    read_hit_ratio: Ratio.nullable(),
    capacity_bytes: Bytes.nullable(),
    evicted_bytes: Bytes,
  }),
  block_sizes: z.array(BlockSizeBin),
  working_set: WorkingSet.nullable(),
  mrc: MissRatioCurve.nullable(),
  recommendation: Recommendation.nullable(),
});
export type VolumeDetail = z.infer<typeof VolumeDetail>;

/** What GET /v1/search finds: a volume or a host, by part of its name or the start of its id. */
export const SearchResult = z.object({
  kind: z.enum(["volume", "host"]),
  id: z.string(),
  display_name: z.string().nullable(),
  /** For a volume, the host it was last seen on, and its name when it opted in; null for a host. */
  host_id: z.string().nullable(),
  host_display_name: z.string().nullable(),
});
export type SearchResult = z.infer<typeof SearchResult>;

/** GET /v1/search: the best matches first (exact name, name prefix, id prefix, the rest). */
export const SearchResults = z.object({ data: z.array(SearchResult) });
export type SearchResults = z.infer<typeof SearchResults>;
