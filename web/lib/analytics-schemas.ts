import { EVICTIONS } from "@tierwise/common/contracts";
import { z } from "zod";
import { MissRatioCurve, WorkingSet } from "./api-schemas";

/**
 * Zod schemas of the analytics responses the portal reads: GET /v1/series, /v1/fleet/overview,
 * /v1/volumes/:id/working-set/history, /v1/recommendations (list, history), /v1/volumes/:id/policy,
 * /v1/volumes/:id/policy-effect, /v1/benchmarks, /v1/hosts. Units: rates per second, latency and
 * CPU per I/O in µs, sizes in bytes, CPU in shares of the host's CPUs or cores, ratios 0..1.
 */

const Num = z.number();
const Timestamp = z.iso.datetime({ offset: true });
const Ratio = z.number().min(0).max(1);

/** Latency of a set of I/Os from their merged histogram (µs). */
export const SeriesLatency = z.object({ count: Num, p50_us: Num, p95_us: Num, p99_us: Num, p99_max_us: Num });
export type SeriesLatency = z.infer<typeof SeriesLatency>;

export const SeriesSize = SeriesLatency.extend({
  direction: z.enum(["read", "write", "all"]),
  size_bin: z.string(),
  ops_per_s: Num,
  share: Num,
});
export type SeriesSize = z.infer<typeof SeriesSize>;

/** What one storage source (VM observed, cache, peer, datastore) served in a point. */
export const SeriesSource = z.object({
  iops: Num,
  read_iops: Num,
  write_iops: Num,
  bytes_per_s: Num,
  read_bytes_per_s: Num,
  write_bytes_per_s: Num,
  latency: SeriesLatency.nullable(),
});
export type SeriesSource = z.infer<typeof SeriesSource>;

/**
 * Storage-bound CPU beside the I/O of a point (docs/workload.md "Storage-bound CPU";
 * services/api/src/cpu/cpu-times.ts): shares of all the host's CPUs, the consumer's CPU seconds per
 * second (the processes attached to the volume's export, or its cgroup) and CPU µs per front-end I/O.
 */
export const SeriesCpu = z.object({
  host_busy: Ratio,
  host_iowait: Ratio,
  host_steal: Ratio,
  host_cpus: Num,
  consumer_cores: Num.nullable(),
  consumer_kind: z.enum(["process", "cgroup"]).nullable(),
  cpu_us_per_io: Num.nullable(),
});
export type SeriesCpu = z.infer<typeof SeriesCpu>;

export const SeriesPoint = z.object({
  t: Timestamp,
  windows: Num,
  read_iops: Num,
  write_iops: Num,
  iops_min: Num,
  iops_max: Num,
  read_bytes_per_s: Num,
  write_bytes_per_s: Num,
  throughput_min: Num,
  throughput_max: Num,
  sources: z.object({ vm_observed: SeriesSource, cache: SeriesSource.nullable(), peer: SeriesSource.nullable(), datastore: SeriesSource.nullable() }),
  hit_ratio: Ratio.nullable(),
  read_hit_ratio: Ratio.nullable(),
  occupancy_bytes: Num,
  capacity_bytes: Num,
  latency: SeriesLatency.nullable(),
  read_latency: SeriesLatency.nullable(),
  write_latency: SeriesLatency.nullable(),
  selection: SeriesLatency.extend({ ops_per_s: Num }).nullable(),
  sizes: z.array(SeriesSize),
  /** Null when no window of the point carried CPU time (a replay, an import, an agent before 2026-11). */
  cpu: SeriesCpu.nullable(),
});
export type SeriesPoint = z.infer<typeof SeriesPoint>;

/** GET /v1/series. */
export const Series = z.object({
  scope: z.string(),
  scope_id: z.string(),
  from: Timestamp,
  to: Timestamp,
  resolution: z.string(),
  window_seconds: Num,
  bucket_seconds: Num,
  windows_read: Num,
  size_bins: z.array(z.string()),
  points: z.array(SeriesPoint),
});
export type Series = z.infer<typeof Series>;

export const OverviewVolume = z.object({
  volume_id: z.string(),
  display_name: z.string().nullable(),
  host_id: z.string(),
  ios: Num,
  iops: Num,
  bytes_per_s: Num,
  latency: SeriesLatency.nullable(),
});
export type OverviewVolume = z.infer<typeof OverviewVolume>;

/** GET /v1/fleet/overview. */
export const Overview = z.object({
  from: Timestamp,
  to: Timestamp,
  resolution: z.string(),
  totals: z.object({
    ios: Num,
    bytes: Num,
    ios_offloaded: Num,
    bytes_offloaded: Num,
    writes_accelerated: Num,
    read_hit_ratio: Ratio.nullable(),
    latency: SeriesLatency.nullable(),
  }),
  top_by_latency: z.array(OverviewVolume),
  top_by_iops: z.array(OverviewVolume),
  hosts: z.array(z.object({ host_id: z.string(), display_name: z.string().nullable(), ios: Num, volumes: z.array(OverviewVolume) })),
});
export type Overview = z.infer<typeof Overview>;

/** GET /v1/volumes/:volumeId/working-set/history and /v1/clusters/:clusterId/working-set/history. */
export const WorkingSetHistory = z.object({
  window: z.string(),
  bucket_seconds: Num,
  points: z.array(z.object({ t: Timestamp, wss_max_bytes: Num, wss_min_bytes: Num, wss_bytes: Num, wss_read_bytes: Num, wss_write_bytes: Num })),
});
export type WorkingSetHistory = z.infer<typeof WorkingSetHistory>;

/**
 * A cluster's tier: hosts, current capacity as its volumes report it, the shared tier recommended
 * from their merged stream and their own recommendations added up (bytes).
 */
const ClusterTier = z.object({
  hosts: Num,
  capacity_bytes: Num,
  recommended_tier_bytes: Num.nullable(),
  volumes_recommended_tier_bytes: Num.nullable().default(null),
});

/** GET /v1/clusters. */
export const ClusterPage = z.object({
  data: z.array(ClusterTier.extend({ cluster_id: z.string(), volumes: Num, wss_bytes: Num, updated_at: Timestamp })),
  next_cursor: z.string().nullable(),
});
export type ClusterPage = z.infer<typeof ClusterPage>;


const RecommendationFields = z.object({
  tier_bytes: Num,
  media: z.enum(["ram", "nvme"]),
  policy: z.string(),
  eviction: z.enum(EVICTIONS).nullable(),
  window_name: z.string(),
  replicas: Num,
  predicted_hit_ratio: Ratio,
  achievable_hit_ratio: Ratio,
  target_hit_ratio: Ratio,
  offloaded_iops: Num,
  offloaded_bytes_per_second: Num,
  predicted_latency_us: Num.nullable(),
  datastore_latency_us: Num.nullable(),
  tier_write_bytes_per_day: Num.nullable(),
  drive_writes_per_day: Num.nullable(),
  measured_hit_ratio: Ratio.nullable(),
  measured_at: Timestamp.nullable(),
  measured_seconds: Num.nullable(),
  hit_ratio_error: Num.nullable(),
  created_at: Timestamp,
  explanation: z.string(),
});

/** The tier recommended for a cluster or a host from the merged stream of its volumes (no measurement). */
const SharedTierRecommendation = RecommendationFields.omit({
  measured_hit_ratio: true,
  measured_at: true,
  measured_seconds: true,
  hit_ratio_error: true,
}).extend({ volumes: Num });
export type SharedTierRecommendation = z.infer<typeof SharedTierRecommendation>;

/** One window of a shared tier's merged stream. */
const SharedTierWindow = z.object({ window: z.string(), working_set: WorkingSet, mrc: MissRatioCurve.nullable() });
export type SharedTierWindow = z.infer<typeof SharedTierWindow>;

/** GET /v1/clusters/:clusterId/working-set. */
export const ClusterWorkingSet = ClusterTier.extend({
  cluster_id: z.string(),
  volumes: Num,
  windows: z.array(SharedTierWindow),
  recommendation: SharedTierRecommendation.nullable().default(null),
});
export type ClusterWorkingSet = z.infer<typeof ClusterWorkingSet>;

/** GET /v1/hosts/:hostId/working-set: the tier a host's volumes share. */
export const HostWorkingSet = z.object({
  host_id: z.string(),
  display_name: z.string().nullable(),
  volumes: Num,
  capacity_bytes: Num,
  volumes_recommended_tier_bytes: Num.nullable(),
  windows: z.array(SharedTierWindow),
  recommendation: SharedTierRecommendation.nullable(),
});
export type HostWorkingSet = z.infer<typeof HostWorkingSet>;

/**
 * One row of a recommendation's inputs.what_if (the stream jobs' TierRecommender): what a tier of
 * one size under one eviction policy would do for the volume.
 */
export const WhatIfRow = z.object({
  cache_bytes: Num,
  eviction: z.enum(EVICTIONS),
  media: z.enum(["ram", "nvme"]),
  hit_ratio: Ratio,
  offloaded_iops: Num,
  latency_us: Num,
  tier_write_bytes_per_day: Num,
});
export type WhatIfRow = z.infer<typeof WhatIfRow>;

/** One item of GET /v1/recommendations (and GET /v1/recommendations/:volumeId). */
export const RecommendationItem = RecommendationFields.extend({
  volume_id: z.string(),
  host_id: z.string(),
  /** The volume's name when its host opted in, else null. */
  display_name: z.string().nullable(),
  status: z.string(),
  decided_at: Timestamp.nullable(),
  reason: z.string().nullable(),
  inputs: z.record(z.string(), z.unknown()),
});
export type RecommendationItem = z.infer<typeof RecommendationItem>;
export const RecommendationPage = z.object({ data: z.array(RecommendationItem), next_cursor: z.string().nullable() });
export type RecommendationPage = z.infer<typeof RecommendationPage>;

/** GET /v1/volumes/:volumeId/recommendations/history. */
export const RecommendationHistory = z.object({
  data: z.array(RecommendationFields.extend({ id: z.string(), volume_id: z.string() })),
  next_cursor: z.string().nullable(),
});
export type RecommendationHistory = z.infer<typeof RecommendationHistory>;

/** GET /v1/volumes/:volumeId/policy: desired policy and what the agent applied. */
export const Policy = z.object({
  volume_id: z.string(),
  version: Num,
  mode: z.enum(["write-through", "write-back"]),
  write_back_copies: Num.nullable(),
  tier_bytes: Num,
  media: z.enum(["ram", "nvme"]),
  eviction: z.string(),
  source: z.enum(["manual", "recommendation"]),
  updated_at: Timestamp,
  applied_version: Num.nullable(),
  applied_at: Timestamp.nullable(),
  /** What the agent could not apply of that version (e.g. a tier size it cannot change live), or null. */
  applied_error: z.string().nullable(),
  in_sync: z.boolean(),
});
export type Policy = z.infer<typeof Policy>;

/** One side of a policy change: the volume's 10 s windows with I/O in the span (null figures: not measured). */
const PolicyEffectSide = z.object({
  seconds: Num,
  iops: Num,
  latency_p50_us: Num.nullable(),
  latency_p99_us: Num.nullable(),
  host_busy: Ratio.nullable(),
  host_iowait: Ratio.nullable(),
  consumer_cores: Num.nullable(),
  cpu_us_per_io: Num.nullable(),
});
export type PolicyEffectSide = z.infer<typeof PolicyEffectSide>;

/** How the api reads a policy change (services/api/src/cpu/policy-effect.ts; docs/workload.md "Storage-bound CPU"). */
export const POLICY_EFFECT_VERDICTS = ["work_done", "latency_down", "cpu_per_io_up", "latency_up", "no_change", "insufficient_data"] as const;
export type PolicyEffectVerdict = (typeof POLICY_EFFECT_VERDICTS)[number];

/**
 * GET /v1/volumes/:volumeId/policy-effect: the volume's latency and CPU over the time since its
 * agent applied the latest policy version (at most 600 s) against as long just before it, the
 * verdict and one sentence with the figures.
 */
export const PolicyEffect = z.object({
  volume_id: z.string(),
  policy_version: Num,
  applied_at: Timestamp,
  span_seconds: Num,
  before: PolicyEffectSide.nullable(),
  after: PolicyEffectSide.nullable(),
  verdict: z.enum(POLICY_EFFECT_VERDICTS),
  statement: z.string(),
});
export type PolicyEffect = z.infer<typeof PolicyEffect>;

/** Where the tenant stands on one scalar figure of a cohort: its band among the cohort's published (noisy) quartiles. */
const Standing = z.object({
  own: Num.nullable(),
  cohort_p25: Num.nullable(),
  cohort_p50: Num.nullable(),
  cohort_p75: Num.nullable(),
  rank_band: z.enum(["below_p25", "p25_p50", "p50_p75", "above_p75"]).nullable(),
});

/** GET /v1/benchmarks (docs/benchmarks.md). */
export const Benchmarks = z.object({
  window_days: Num,
  min_tenants: Num,
  min_days: Num,
  epsilon: Num,
  cohorts: z.array(
    z.object({
      media: z.enum(["ram", "nvme", "none"]),
      workload_class: z.enum(["read-heavy", "mixed", "write-heavy"]),
      published: z.boolean(),
      tenant_count: Num.nullable(),
      volume_ids: z.array(z.string()),
      read_share: Standing,
      wss_per_capacity: Standing,
      latency: z.array(
        z.object({
          direction: z.enum(["read", "write"]),
          size_bin: z.string(),
          own_p50_us: Num.nullable(),
          own_p95_us: Num.nullable(),
          own_p99_us: Num.nullable(),
          cohort_p50_us: Num.nullable(),
          cohort_p95_us: Num.nullable(),
          cohort_p99_us: Num.nullable(),
        }),
      ),
    }),
  ),
});
export type Benchmarks = z.infer<typeof Benchmarks>;
