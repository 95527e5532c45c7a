-- Up Migration
-- Issue 5: working sets over 1 h / 24 h / 7 d windows with fixed-size SHARDS,
-- richer recommendations (replicas, offload, predicted latency), their history,
-- and the measured hit ratio compared with the prediction.

-- Checkpointed bytes of the volume's SHARDS state (every window), for capacity planning.
ALTER TABLE volume_working_sets ADD COLUMN state_bytes bigint NOT NULL DEFAULT 0;

ALTER TABLE recommendations
  ADD COLUMN window_name text NOT NULL DEFAULT 'all',
  ADD COLUMN replicas integer NOT NULL DEFAULT 0 CHECK (replicas >= 0),
  ADD COLUMN offloaded_iops double precision NOT NULL DEFAULT 0,
  ADD COLUMN offloaded_bytes_per_second double precision NOT NULL DEFAULT 0,
  ADD COLUMN predicted_latency_us double precision,
  ADD COLUMN datastore_latency_us double precision,
  -- The hit ratio measured once the recommendation runs: the agent's cache
  -- counters (volume_metrics_10s) of the intervals whose tier capacity is
  -- tier_bytes, read hits for write-through, all hits for write-back (4 KiB
  -- blocks); then measured - predicted. NULL until measured; a new prediction
  -- clears them (the jobs' upsert).
  ADD COLUMN measured_hits bigint NOT NULL DEFAULT 0,
  ADD COLUMN measured_misses bigint NOT NULL DEFAULT 0,
  ADD COLUMN measured_hit_ratio double precision CHECK (measured_hit_ratio BETWEEN 0 AND 1),
  ADD COLUMN measured_at timestamptz,
  ADD COLUMN hit_ratio_error double precision
    GENERATED ALWAYS AS (measured_hit_ratio - predicted_hit_ratio) STORED;

-- Every recommendation ever made (the current one stays in recommendations).
CREATE TABLE recommendation_history (
  id             bigserial PRIMARY KEY,
  tenant_id      uuid NOT NULL,
  volume_id      text NOT NULL,
  window_name    text NOT NULL,
  tier_bytes     bigint NOT NULL,
  media          text NOT NULL,
  policy         text NOT NULL,
  replicas       integer NOT NULL,
  predicted_hit_ratio  double precision NOT NULL,
  achievable_hit_ratio double precision NOT NULL,
  target_hit_ratio     double precision NOT NULL,
  offloaded_iops double precision NOT NULL,
  offloaded_bytes_per_second double precision NOT NULL,
  predicted_latency_us double precision,
  datastore_latency_us double precision,
  inputs         jsonb NOT NULL,
  explanation    text NOT NULL,
  created_at     timestamptz NOT NULL
);
CREATE INDEX recommendation_history_volume ON recommendation_history (tenant_id, volume_id, created_at DESC);

-- A row per new or changed prediction, in the writer's transaction (not when
-- only the measured hit ratio is recorded).
CREATE FUNCTION record_recommendation_history() RETURNS trigger
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

CREATE TRIGGER recommendations_history_insert
  AFTER INSERT ON recommendations
  FOR EACH ROW EXECUTE FUNCTION record_recommendation_history();
CREATE TRIGGER recommendations_history_update
  AFTER UPDATE ON recommendations
  FOR EACH ROW WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION record_recommendation_history();

-- Adds an interval's cache counters (the change, as the metrics job upserts
-- full aggregates) to the volume's recommendation when the interval ran at the
-- recommended tier size.
CREATE FUNCTION measure_recommendation() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  UPDATE recommendations r
     SET measured_hits = r.measured_hits + CASE WHEN r.policy = 'write-back'
           THEN NEW.cache_hits - CASE TG_OP WHEN 'UPDATE' THEN OLD.cache_hits ELSE 0 END
           ELSE NEW.read_cache_hits - CASE TG_OP WHEN 'UPDATE' THEN OLD.read_cache_hits ELSE 0 END END,
         measured_misses = r.measured_misses + CASE WHEN r.policy = 'write-back'
           THEN NEW.cache_misses - CASE TG_OP WHEN 'UPDATE' THEN OLD.cache_misses ELSE 0 END
           ELSE NEW.read_cache_misses - CASE TG_OP WHEN 'UPDATE' THEN OLD.read_cache_misses ELSE 0 END END
   WHERE r.tenant_id = NEW.tenant_id AND r.volume_id = NEW.volume_id AND r.tier_bytes = NEW.capacity_bytes;
  UPDATE recommendations r
     SET measured_hit_ratio = r.measured_hits::double precision / (r.measured_hits + r.measured_misses),
         measured_at = now()
   WHERE r.tenant_id = NEW.tenant_id AND r.volume_id = NEW.volume_id AND r.tier_bytes = NEW.capacity_bytes
     AND r.measured_hits + r.measured_misses > 0;
  RETURN NULL;
END $$;

CREATE TRIGGER volume_metrics_measure_recommendation
  AFTER INSERT OR UPDATE ON volume_metrics_10s
  FOR EACH ROW EXECUTE FUNCTION measure_recommendation();

ALTER TABLE recommendation_history ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON recommendation_history
  USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());
GRANT SELECT, INSERT, UPDATE, DELETE ON recommendation_history TO tierwise_app, tierwise_jobs;
GRANT USAGE ON SEQUENCE recommendation_history_id_seq TO tierwise_app, tierwise_jobs;

-- Down Migration
DROP TRIGGER IF EXISTS volume_metrics_measure_recommendation ON volume_metrics_10s;
DROP FUNCTION IF EXISTS measure_recommendation();
DROP TRIGGER IF EXISTS recommendations_history_update ON recommendations;
DROP TRIGGER IF EXISTS recommendations_history_insert ON recommendations;
DROP FUNCTION IF EXISTS record_recommendation_history();
DROP TABLE IF EXISTS recommendation_history;
ALTER TABLE recommendations
  DROP COLUMN IF EXISTS hit_ratio_error, DROP COLUMN IF EXISTS measured_at,
  DROP COLUMN IF EXISTS measured_hit_ratio, DROP COLUMN IF EXISTS measured_misses,
  DROP COLUMN IF EXISTS measured_hits, DROP COLUMN IF EXISTS datastore_latency_us,
  DROP COLUMN IF EXISTS predicted_latency_us, DROP COLUMN IF EXISTS offloaded_bytes_per_second,
  DROP COLUMN IF EXISTS offloaded_iops, DROP COLUMN IF EXISTS replicas, DROP COLUMN IF EXISTS window_name;
ALTER TABLE volume_working_sets DROP COLUMN IF EXISTS state_bytes;
