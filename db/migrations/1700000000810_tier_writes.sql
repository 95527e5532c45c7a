-- Up Migration
-- Issue 15 (flash endurance): the bytes a recommended tier writes to its device per day under the
-- eviction policy it is for (TierRecommender / TierWrites in stream-jobs: read misses admitted,
-- written blocks populated, and journaled in write-back). NULL for a prediction written before.
ALTER TABLE recommendations ADD COLUMN tier_write_bytes_per_day double precision
  CHECK (tier_write_bytes_per_day >= 0);
ALTER TABLE recommendation_history ADD COLUMN tier_write_bytes_per_day double precision
  CHECK (tier_write_bytes_per_day >= 0);

-- As in migration 800, with the tier writes.
CREATE OR REPLACE FUNCTION record_recommendation_history() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO recommendation_history (tenant_id, volume_id, window_name, tier_bytes, media, policy,
    eviction, replicas, predicted_hit_ratio, achievable_hit_ratio, target_hit_ratio, offloaded_iops,
    offloaded_bytes_per_second, predicted_latency_us, datastore_latency_us, tier_write_bytes_per_day,
    inputs, explanation, created_at)
  VALUES (NEW.tenant_id, NEW.volume_id, NEW.window_name, NEW.tier_bytes, NEW.media, NEW.policy,
    NEW.eviction, NEW.replicas, NEW.predicted_hit_ratio, NEW.achievable_hit_ratio, NEW.target_hit_ratio,
    NEW.offloaded_iops, NEW.offloaded_bytes_per_second, NEW.predicted_latency_us,
    NEW.datastore_latency_us, NEW.tier_write_bytes_per_day, NEW.inputs, NEW.explanation, NEW.created_at);
  RETURN NULL;
END $$;

-- Down Migration
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
ALTER TABLE recommendation_history DROP COLUMN tier_write_bytes_per_day;
ALTER TABLE recommendations DROP COLUMN tier_write_bytes_per_day;
