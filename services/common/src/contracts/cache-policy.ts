/**
 * The cache-policy vocabulary every service speaks (the api's policies and recommendations, the
 * agents' policy pull): declared once here. The agent's own names are in
 * edge-agent/src/cache/eviction/eviction_policy.hpp (it spells S3-FIFO `s3fifo`); the database
 * checks the same values (db/migrations, volume_policies and recommendations).
 */

/** Cache modes (shared/DESIGN.md §3): write-through (WT) or write-back to the tier and n peers (WB+n). */
export const CACHE_MODES = ['write-through', 'write-back'] as const;
export type CacheMode = (typeof CACHE_MODES)[number];

/** Tier media. */
export const MEDIA = ['ram', 'nvme'] as const;
export type Media = (typeof MEDIA)[number];

/** The eviction policies the agent's cache engine implements (docs/eviction.md). */
export const EVICTIONS = ['lru', 's3-fifo', 'arc', '2q', 'sieve'] as const;
export type Eviction = (typeof EVICTIONS)[number];

/** The engine's default eviction policy (docs/eviction.md): what a policy gets when none is named. */
export const DEFAULT_EVICTION: Eviction = 's3-fifo';

/** Tier sizes are whole 4 KiB blocks. */
export const TIER_BLOCK_BYTES = 4096;

/** A cache policy: how a volume's tier runs (the api's `PUT /v1/volumes/{volumeId}/policy` body, a recommendation's). */
export interface CachePolicy {
  mode: CacheMode;
  /** n of WB+n; null for write-through */
  write_back_copies: number | null;
  /** tier size, bytes */
  tier_bytes: number;
  media: Media;
  eviction: Eviction;
}

/**
 * A volume's desired cache policy at a version: what the api stores (volume_policies) and what
 * the agent pulls and applies (GET /v1/agent/policies, docs/policies.md).
 */
export interface DesiredPolicy extends CachePolicy {
  volume_id: string;
  /** desired version; every change in the api adds one */
  version: number;
}
