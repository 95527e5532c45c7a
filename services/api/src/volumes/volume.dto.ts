import { ApiProperty } from '@nestjs/swagger';
import { type Eviction, EVICTIONS, type IoCounters, type Media, MEDIA } from '@tierwise/common';
import { PageDto } from '../http/pagination.js';
import { VOLUME_SOURCES, type VolumeSource } from '@tierwise/proto';

// ---- rows (repositories) -------------------------------------------------------------
// bigint columns arrive as float8 (JSON numbers, exact up to 2^53), timestamps as Date.

/** A volume with its I/O totals, working set and recommendation (VolumeRepository). */
/**
 * Front-end I/O and tier counters of a volume (totals or one interval): I/Os, bytes, hits and
 * misses in 4 KiB blocks, hit ratio (null without lookups), capacity and evictions in bytes.
 */
export interface IoCountersRow extends IoCounters {
  hit_ratio: number | null;
  capacity_bytes: number;
  evicted_bytes: number;
}

export interface VolumeRow extends IoCountersRow {
  volume_id: string;
  host_id: string;
  display_name: string | null;
  host_display_name: string | null;
  source: VolumeSource;
  last_seen: Date;
  read_hit_ratio: number | null;
  first_interval: Date | null;
  last_interval: Date | null;
  wss_bytes: number | null;
  recommended_tier_bytes: number | null;
}

/** A row of a volume list page: the volume and the value the list is sorted by. */
export interface VolumePageRow extends VolumeRow {
  sort_key: number;
}

export interface BlockSizeRow {
  direction: 'read' | 'write';
  bin_label: string;
  bin_upper_bytes: number | null;
  ops: number;
  bytes: number;
}

export interface WorkingSetRow {
  wss_bytes: number;
  wss_read_bytes: number;
  wss_write_bytes: number;
  sampling_rate: number;
  sampled_references: number;
  window_start: Date;
  window_end: Date;
}

/** A miss ratio curve as the MRC tables store it (json): [{cache_bytes, miss_ratio}] in increasing cache_bytes. */
export type MrcPointsJson = { cache_bytes: number; miss_ratio: number }[];

export interface MrcRow {
  method: string;
  sampling_rate: number;
  /** volume_mrcs.points or cluster_mrcs.points: the LRU curve. */
  points: MrcPointsJson;
}

export interface PolicyMrcRow extends MrcRow {
  /** volume_mrcs or cluster_mrcs .eviction_points (json): each simulated eviction policy's curve, on the sizes of points; {} before. */
  eviction_points: Partial<Record<Eviction, MrcPointsJson>>;
}

export interface RecommendationRow {
  tier_bytes: number;
  media: 'ram' | 'nvme';
  policy: string;
  predicted_hit_ratio: number;
  achievable_hit_ratio: number;
  target_hit_ratio: number;
  window_name: string;
  replicas: number;
  offloaded_iops: number;
  offloaded_bytes_per_second: number;
  predicted_latency_us: number | null;
  datastore_latency_us: number | null;
  /** NULL for a prediction written before the jobs predicted tier writes (migration 810). */
  tier_write_bytes_per_day: number | null;
  measured_hit_ratio: number | null;
  measured_at: Date | null;
  measured_seconds: number | null;
  hit_ratio_error: number | null;
  /** NULL for a prediction written before the recommender picked the eviction policy (an LRU one). */
  eviction: Eviction | null;
  explanation: string;
  inputs: Record<string, unknown>;
  created_at: Date;
}

/** The tier prediction columns (table alias r) of recommendations, cluster_ or host_recommendations: TierPredictionRow and explanation. */
export const TIER_PREDICTION_COLUMNS = `r.tier_bytes::float8 AS tier_bytes, r.media, r.policy, r.predicted_hit_ratio,
  r.achievable_hit_ratio, r.target_hit_ratio, r.window_name, r.replicas, r.offloaded_iops, r.offloaded_bytes_per_second,
  r.predicted_latency_us, r.datastore_latency_us, r.tier_write_bytes_per_day, r.eviction, r.explanation, r.created_at`;

/** The recommendation columns every recommendation query selects (table alias r), as RecommendationRow. */
export const RECOMMENDATION_COLUMNS = `${TIER_PREDICTION_COLUMNS}, r.measured_hit_ratio, r.measured_at, r.measured_seconds,
  r.hit_ratio_error, r.inputs`;

// ---- DTOs (API) ------------------------------------------------------------------------

export class VolumeSummaryDto {
  @ApiProperty({ description: 'pseudonymous volume id (hex)' })
  volume_id!: string;
  @ApiProperty({ description: 'pseudonymous id of the host the volume was last seen on' })
  host_id!: string;
  @ApiProperty({ type: String, nullable: true, description: 'volume name, only when the host opted in' })
  display_name!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'name of the host, only when it opted in' })
  host_display_name!: string | null;
  @ApiProperty({ enum: VOLUME_SOURCES, description: 'where the figures come from: agent (measured by the Tierwise agent) or vscsistats (imported from vscsiStats output, docs/workload.md)' })
  source!: VolumeSource;
  @ApiProperty({ description: 'front-end read I/Os' })
  read_ops!: number;
  @ApiProperty({ description: 'front-end write I/Os' })
  write_ops!: number;
  @ApiProperty({ description: 'bytes read' })
  read_bytes!: number;
  @ApiProperty({ description: 'bytes written' })
  write_bytes!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'hits / (hits + misses), 4 KiB blocks, all directions' })
  hit_ratio!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'hit ratio of reads' })
  read_hit_ratio!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: "working set size, bytes (window 'all')" })
  wss_bytes!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'recommended tier size, bytes' })
  recommended_tier_bytes!: number | null;
  @ApiProperty({ format: 'date-time', description: 'when ingest last received data of the volume' })
  last_seen!: string;
}

export class VolumeListDto extends PageDto(VolumeSummaryDto) {}

export class VolumeIoDto {
  @ApiProperty() read_ops!: number;
  @ApiProperty() write_ops!: number;
  @ApiProperty({ description: 'bytes' }) read_bytes!: number;
  @ApiProperty({ description: 'bytes' }) write_bytes!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'start of the first 10-second interval received' })
  first_interval!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'start of the last 10-second interval received' })
  last_interval!: string | null;
}

export class VolumeCacheDto {
  @ApiProperty({ description: '4 KiB blocks found in the tier' }) hits!: number;
  @ApiProperty({ description: '4 KiB blocks not found in the tier' }) misses!: number;
  @ApiProperty({ type: Number, nullable: true }) hit_ratio!: number | null;
  @ApiProperty({ type: Number, nullable: true }) read_hit_ratio!: number | null;
  @ApiProperty({ description: 'tier capacity, bytes' }) capacity_bytes!: number;
  @ApiProperty({ description: 'bytes evicted from the tier' }) evicted_bytes!: number;
}

export class BlockSizeDto {
  @ApiProperty({ enum: ['read', 'write'] }) direction!: 'read' | 'write';
  @ApiProperty({ description: "vscsiStats ioLength bin: upper bound in bytes, or '>524288'", example: '4096' }) bin_label!: string;
  @ApiProperty({ type: Number, nullable: true, description: 'inclusive upper bound, bytes; null for the last bin' })
  bin_upper_bytes!: number | null;
  @ApiProperty({ description: 'I/Os in the bin' }) ops!: number;
  @ApiProperty({ description: 'bytes of the I/Os in the bin' }) bytes!: number;
}

export class WorkingSetDto {
  @ApiProperty({ description: 'distinct 4 KiB blocks touched × 4 KiB, estimated from SHARDS samples' }) wss_bytes!: number;
  @ApiProperty() wss_read_bytes!: number;
  @ApiProperty() wss_write_bytes!: number;
  @ApiProperty({ description: 'SHARDS sampling rate R = T / P' }) sampling_rate!: number;
  @ApiProperty() sampled_references!: number;
  @ApiProperty({ format: 'date-time' }) window_start!: string;
  @ApiProperty({ format: 'date-time' }) window_end!: string;
}

export class MrcPointDto {
  @ApiProperty({ description: 'cache size, bytes' }) cache_bytes!: number;
  @ApiProperty({ description: 'miss ratio of the curve at that size, 0..1' }) miss_ratio!: number;
}

export class MrcDto {
  @ApiProperty({ example: 'shards-fixed-rate' }) method!: string;
  @ApiProperty() sampling_rate!: number;
  @ApiProperty({ type: [MrcPointDto], description: 'LRU miss ratio curve, in increasing cache_bytes' }) points!: MrcPointDto[];
}

/** One eviction policy's miss ratio curve. */
export class EvictionMrcDto {
  @ApiProperty({ enum: EVICTIONS, description: 'eviction policy of the simulated cache' }) eviction!: Eviction;
  @ApiProperty({ type: [MrcPointDto], description: "the policy's miss ratio curve, on the cache sizes of the mrc's points (increasing cache_bytes)" })
  points!: MrcPointDto[];
}

export class PolicyMrcDto extends MrcDto {
  @ApiProperty({
    type: [EvictionMrcDto],
    description:
      "miss ratio curve of the agent's cache under each eviction policy (miniature simulations, docs/analytics.md); the LRU one equals points. " +
      `One per policy simulated, in the order ${EVICTIONS.join(', ')}; [] for a curve computed before`,
  })
  curves!: EvictionMrcDto[];
}

/** What the stream jobs predict of a tier (a volume's or a cluster's shared tier): size, media, policies and effect. */
export class TierPredictionDto {
  @ApiProperty({ description: 'recommended tier size, bytes' }) tier_bytes!: number;
  @ApiProperty({ enum: MEDIA }) media!: Media;
  @ApiProperty({ example: 'write-through' }) policy!: string;
  @ApiProperty({ description: 'working-set window the prediction was computed over', example: '24h' }) window_name!: string;
  @ApiProperty({ description: 'n of WB+n: copies of dirty blocks on other hosts (0 for write-through)' }) replicas!: number;
  @ApiProperty({ description: 'hit ratio the miss ratio curve predicts at tier_bytes, 0-1' }) predicted_hit_ratio!: number;
  @ApiProperty({ description: 'hit ratio of an unbounded cache over the window, 0-1' }) achievable_hit_ratio!: number;
  @ApiProperty({ description: 'hit ratio the tier was sized for, 0-1' }) target_hit_ratio!: number;
  @ApiProperty({ description: 'I/Os per second the tier takes off the datastore (predicted hits)' }) offloaded_iops!: number;
  @ApiProperty({ description: 'bytes per second the tier takes off the datastore (predicted hits)' }) offloaded_bytes_per_second!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'predicted mean latency with the tier, microseconds; null without latency samples' })
  predicted_latency_us!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'measured mean datastore (miss) latency, microseconds; null without latency samples' })
  datastore_latency_us!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: "bytes the tier writes to its device per day at tier_bytes under eviction (read misses admitted, written blocks populated, and journaled in write-back), predicted; null for an older prediction" })
  tier_write_bytes_per_day!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'tier_write_bytes_per_day / tier_bytes: the drive writes per day (DWPD) a device of the tier\'s size would take, to compare with its endurance rating; null for an older prediction' })
  drive_writes_per_day!: number | null;
  @ApiProperty({
    type: String,
    enum: EVICTIONS,
    nullable: true,
    description: 'eviction policy the prediction is for (the recommender picks it with the size); null for an older, LRU prediction',
  })
  eviction!: Eviction | null;
  @ApiProperty({ format: 'date-time', description: 'when the prediction was made' }) created_at!: string;
}

/** A volume's prediction, and what was measured while it ran (the closed loop). */
export class PredictionDto extends TierPredictionDto {
  @ApiProperty({ type: Number, nullable: true, description: "hit ratio the agent's cache counters measured while the recommendation ran: applied, reported running by the agent, at tier_bytes, after the tier's warm-up (full, or 10 minutes); a new prediction for the tier already applied goes on from the measurement of the one it replaced; 0-1; null until measured" })
  measured_hit_ratio!: number | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'when measured_hit_ratio was last updated' })
  measured_at!: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'seconds of the intervals measured_hit_ratio was measured over; null until measured' })
  measured_seconds!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'measured_hit_ratio - predicted_hit_ratio (negative: the tier hits less than predicted); null until measured' })
  hit_ratio_error!: number | null;
}

export class RecommendationDto extends PredictionDto {
  @ApiProperty() explanation!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'the inputs the recommendation was computed from' })
  inputs!: Record<string, unknown>;
}

export class VolumeDetailDto {
  @ApiProperty() volume_id!: string;
  @ApiProperty() host_id!: string;
  @ApiProperty({ type: String, nullable: true, description: 'volume name, only when the host opted in' }) display_name!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'name of the host, only when it opted in' }) host_display_name!: string | null;
  @ApiProperty({ enum: VOLUME_SOURCES, description: 'where the figures come from: agent (measured by the Tierwise agent) or vscsistats (imported from vscsiStats output, docs/workload.md)' }) source!: VolumeSource;
  @ApiProperty({ type: VolumeIoDto }) io!: VolumeIoDto;
  @ApiProperty({ type: VolumeCacheDto }) cache!: VolumeCacheDto;
  @ApiProperty({ type: [BlockSizeDto], description: 'read bins then write bins, in increasing size' }) block_sizes!: BlockSizeDto[];
  @ApiProperty({ type: WorkingSetDto, nullable: true }) working_set!: WorkingSetDto | null;
  @ApiProperty({ type: PolicyMrcDto, nullable: true }) mrc!: PolicyMrcDto | null;
  @ApiProperty({ type: RecommendationDto, nullable: true }) recommendation!: RecommendationDto | null;
}

// ---- mapping (the one place rows become DTOs) -----------------------------------------

export function mapVolumeSummary(row: VolumeRow): VolumeSummaryDto {
  return {
    volume_id: row.volume_id,
    host_id: row.host_id,
    display_name: row.display_name,
    host_display_name: row.host_display_name,
    source: row.source,
    read_ops: row.read_ops,
    write_ops: row.write_ops,
    read_bytes: row.read_bytes,
    write_bytes: row.write_bytes,
    hit_ratio: row.hit_ratio,
    read_hit_ratio: row.read_hit_ratio,
    wss_bytes: row.wss_bytes,
    recommended_tier_bytes: row.recommended_tier_bytes,
    last_seen: row.last_seen.toISOString(),
  };
}

export interface VolumeDetailRows {
  volume: VolumeRow;
  blockSizes: BlockSizeRow[];
  workingSet: WorkingSetRow | null;
  mrc: PolicyMrcRow | null;
  recommendation: RecommendationRow | null;
}

export function mapVolumeDetail({ volume, blockSizes, workingSet, mrc, recommendation }: VolumeDetailRows): VolumeDetailDto {
  return {
    volume_id: volume.volume_id,
    host_id: volume.host_id,
    display_name: volume.display_name,
    host_display_name: volume.host_display_name,
    source: volume.source,
    io: {
      read_ops: volume.read_ops,
      write_ops: volume.write_ops,
      read_bytes: volume.read_bytes,
      write_bytes: volume.write_bytes,
      first_interval: volume.first_interval?.toISOString() ?? null,
      last_interval: volume.last_interval?.toISOString() ?? null,
    },
    cache: {
      hits: volume.cache_hits,
      misses: volume.cache_misses,
      hit_ratio: volume.hit_ratio,
      read_hit_ratio: volume.read_hit_ratio,
      capacity_bytes: volume.capacity_bytes,
      evicted_bytes: volume.evicted_bytes,
    },
    block_sizes: blockSizes.map((bin) => ({
      direction: bin.direction,
      bin_label: bin.bin_label,
      bin_upper_bytes: bin.bin_upper_bytes,
      ops: bin.ops,
      bytes: bin.bytes,
    })),
    working_set: workingSet && mapWorkingSet(workingSet),
    mrc: mrc && mapPolicyMrc(mrc),
    recommendation: recommendation && mapRecommendationFields(recommendation),
  };
}

/** A volume_working_sets or cluster_working_sets row (timestamps as ISO 8601). */
export function mapWorkingSet(row: WorkingSetRow): WorkingSetDto {
  return {
    wss_bytes: row.wss_bytes,
    wss_read_bytes: row.wss_read_bytes,
    wss_write_bytes: row.wss_write_bytes,
    sampling_rate: row.sampling_rate,
    sampled_references: row.sampled_references,
    window_start: row.window_start.toISOString(),
    window_end: row.window_end.toISOString(),
  };
}

function mapPoints(points: MrcPointsJson): MrcPointDto[] {
  return points.map((point) => ({ cache_bytes: Number(point.cache_bytes), miss_ratio: Number(point.miss_ratio) }));
}

/** A volume_mrcs or cluster_mrcs row (its LRU curve). */
export function mapMrc(row: MrcRow): MrcDto {
  return { method: row.method, sampling_rate: row.sampling_rate, points: mapPoints(row.points) };
}

/** A volume_mrcs or cluster_mrcs row with each eviction policy's curve, in EVICTIONS order (the stored json keeps the writer's key order). */
export function mapPolicyMrc(row: PolicyMrcRow): PolicyMrcDto {
  const curves = EVICTIONS.flatMap((eviction) => {
    const points = row.eviction_points[eviction];
    return points ? [{ eviction, points: mapPoints(points) }] : [];
  });
  return { ...mapMrc(row), curves };
}

/** The columns of a tier prediction, a volume's or a cluster's (TierPredictionDto). */
export type TierPredictionRow = Omit<RecommendationRow, 'explanation' | 'inputs' | 'measured_hit_ratio' | 'measured_at' | 'measured_seconds' | 'hit_ratio_error'>;

/** The tier prediction fields of a recommendation row (timestamps as ISO 8601). */
export function mapTierPrediction(row: TierPredictionRow): TierPredictionDto {
  return {
    tier_bytes: row.tier_bytes,
    media: row.media,
    policy: row.policy,
    window_name: row.window_name,
    replicas: row.replicas,
    predicted_hit_ratio: row.predicted_hit_ratio,
    achievable_hit_ratio: row.achievable_hit_ratio,
    target_hit_ratio: row.target_hit_ratio,
    offloaded_iops: row.offloaded_iops,
    offloaded_bytes_per_second: row.offloaded_bytes_per_second,
    predicted_latency_us: row.predicted_latency_us,
    datastore_latency_us: row.datastore_latency_us,
    tier_write_bytes_per_day: row.tier_write_bytes_per_day,
    drive_writes_per_day: row.tier_write_bytes_per_day === null ? null : row.tier_write_bytes_per_day / row.tier_bytes,
    eviction: row.eviction,
    created_at: row.created_at.toISOString(),
  };
}

/** The prediction fields of a volume's recommendation or history row, with what was measured. */
export function mapPrediction(row: Omit<RecommendationRow, 'explanation' | 'inputs'>): PredictionDto {
  return {
    ...mapTierPrediction(row),
    measured_hit_ratio: row.measured_hit_ratio,
    measured_at: row.measured_at?.toISOString() ?? null,
    measured_seconds: row.measured_hit_ratio === null ? null : row.measured_seconds,
    hit_ratio_error: row.hit_ratio_error,
  };
}

/** A recommendation row as RecommendationDto. */
export function mapRecommendationFields(row: RecommendationRow): RecommendationDto {
  return { ...mapPrediction(row), explanation: row.explanation, inputs: row.inputs };
}
