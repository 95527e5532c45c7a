-- Up Migration
-- Issue 15: a miss ratio curve per eviction policy, and recommendations that pick the eviction
-- policy with the tier size. The working-set job estimates each policy's curve by miniature
-- simulations (docs/analytics.md) on the sizes of the volume's SHARDS LRU curve; the recommender
-- predicts for the policy it picks. The names are the api's eviction vocabulary
-- (services/common/src/contracts/cache-policy.ts), as volume_policies.eviction checks them.

-- eviction_points: {"<eviction>": [{"cache_bytes": <bytes>, "miss_ratio": <0..1>}, ...], ...},
-- one key per policy the job simulated, each curve on the same cache sizes as points (increasing
-- cache_bytes; the 'lru' one equals points). '{}' for a row written before.
ALTER TABLE volume_mrcs ADD COLUMN eviction_points jsonb NOT NULL DEFAULT '{}'
  CONSTRAINT volume_mrcs_eviction_points_check CHECK (jsonb_typeof(eviction_points) = 'object'
    AND eviction_points - ARRAY['lru', 's3-fifo', 'arc', '2q', 'sieve'] = '{}'::jsonb);

-- The eviction policy the prediction is for; NULL for a prediction written before (an LRU one).
ALTER TABLE recommendations ADD COLUMN eviction text
  CHECK (eviction IN ('lru', 's3-fifo', 'arc', '2q', 'sieve'));
ALTER TABLE recommendation_history ADD COLUMN eviction text
  CHECK (eviction IN ('lru', 's3-fifo', 'arc', '2q', 'sieve'));

-- As in migration 100, with the eviction policy.
CREATE OR REPLACE FUNCTION record_recommendation_history() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO recommendation_history (tenant_id, volume_id, window_name, tier_bytes, media, policy,
    eviction, replicas, predicted_hit_ratio, achievable_hit_ratio, target_hit_ratio, offloaded_iops,
    offloaded_bytes_per_second, predicted_latency_us, datastore_latency_us, inputs, explanation,
    created_at)
  VALUES (NEW.tenant_id, NEW.volume_id, NEW.window_name, NEW.tier_bytes, NEW.media, NEW.policy,
    NEW.eviction, NEW.replicas, NEW.predicted_hit_ratio, NEW.achievable_hit_ratio, NEW.target_hit_ratio,
    NEW.offloaded_iops, NEW.offloaded_bytes_per_second, NEW.predicted_latency_us,
    NEW.datastore_latency_us, NEW.inputs, NEW.explanation, NEW.created_at);
  RETURN NULL;
END $$;

-- Down Migration
CREATE OR REPLACE FUNCTION record_recommendation_history() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO recommendation_history (tenant_id, volume_id, window_name, tier_bytes, media, policy,
    replicas, predicted_hit_ratio, achievable_hit_ratio, target_hit_ratio, offloaded_iops,
    offloaded_bytes_per_second, predicted_latency_us, datastore_latency_us, inputs, explanation,
    created_at)
  VALUES (NEW.tenant_id, NEW.volume_id, NEW.window_name, NEW.tier_bytes, NEW.media, NEW.policy,
    NEW.replicas, NEW.predicted_hit_ratio, NEW.achievable_hit_ratio, NEW.target_hit_ratio,
    NEW.offloaded_iops, NEW.offloaded_bytes_per_second, NEW.predicted_latency_us,
    NEW.datastore_latency_us, NEW.inputs, NEW.explanation, NEW.created_at);
  RETURN NULL;
END $$;
ALTER TABLE recommendation_history DROP COLUMN eviction;
ALTER TABLE recommendations DROP COLUMN eviction;
ALTER TABLE volume_mrcs DROP COLUMN eviction_points;
