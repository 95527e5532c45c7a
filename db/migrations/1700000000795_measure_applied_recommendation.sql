-- Up Migration
-- Issue 15: a recommendation is measured only while it runs, and once its tier is warm. Before,
-- any 10-second interval at the recommended tier size counted, applied or not, so the replay that
-- produced a prediction also "measured" it, and a just-applied tier's cold misses counted against it.
--
-- An interval of volume_metrics_10s now counts for the volume's current recommendation when
--   1. the recommendation was applied (recommendation_decisions: 'applied' for this created_at),
--   2. the agent reported the policy version that decision wrote as the one it runs
--      (volume_policies.applied_version = the decision's policy_version), and the interval starts
--      at or after that report (applied_at),
--   3. the tier is warm: the interval ran with the tier full (occupancy_bytes >= capacity_bytes), or
--      it starts WARM_UP (10 minutes) after the report (a working set smaller than the tier never
--      fills it),
--   4. it ran at the recommended size (capacity_bytes = tier_bytes), as before.
-- measured_seconds is the time measured over (the counted intervals' seconds); it goes to the
-- prediction's history row with the hit ratio, and the jobs' upsert of a new prediction clears it.

ALTER TABLE recommendations ADD COLUMN measured_seconds double precision NOT NULL DEFAULT 0;
ALTER TABLE recommendation_history ADD COLUMN measured_seconds double precision;

CREATE OR REPLACE FUNCTION measure_recommendation() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  warm_up CONSTANT interval := interval '10 minutes';
BEGIN
  UPDATE recommendations r
     SET measured_hits = r.measured_hits + CASE WHEN r.policy = 'write-back'
           THEN NEW.cache_hits - CASE TG_OP WHEN 'UPDATE' THEN OLD.cache_hits ELSE 0 END
           ELSE NEW.read_cache_hits - CASE TG_OP WHEN 'UPDATE' THEN OLD.read_cache_hits ELSE 0 END END,
         measured_misses = r.measured_misses + CASE WHEN r.policy = 'write-back'
           THEN NEW.cache_misses - CASE TG_OP WHEN 'UPDATE' THEN OLD.cache_misses ELSE 0 END
           ELSE NEW.read_cache_misses - CASE TG_OP WHEN 'UPDATE' THEN OLD.read_cache_misses ELSE 0 END END,
         measured_seconds = r.measured_seconds + CASE TG_OP WHEN 'INSERT' THEN NEW.interval_seconds ELSE 0 END
    FROM recommendation_decisions d, volume_policies p
   WHERE r.tenant_id = NEW.tenant_id AND r.volume_id = NEW.volume_id AND r.tier_bytes = NEW.capacity_bytes
     AND d.tenant_id = r.tenant_id AND d.volume_id = r.volume_id AND d.recommendation_created_at = r.created_at
     AND d.decision = 'applied'
     AND p.tenant_id = r.tenant_id AND p.volume_id = r.volume_id
     AND p.applied_version = d.policy_version AND NEW.interval_start >= p.applied_at
     AND (NEW.occupancy_bytes >= NEW.capacity_bytes OR NEW.interval_start >= p.applied_at + warm_up);
  IF FOUND THEN
    UPDATE recommendations r
       SET measured_hit_ratio = r.measured_hits::double precision / (r.measured_hits + r.measured_misses),
           measured_at = now()
     WHERE r.tenant_id = NEW.tenant_id AND r.volume_id = NEW.volume_id AND r.tier_bytes = NEW.capacity_bytes
       AND r.measured_hits + r.measured_misses > 0;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION record_recommendation_measurement() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  UPDATE recommendation_history h
     SET measured_hit_ratio = NEW.measured_hit_ratio, measured_at = NEW.measured_at,
         measured_seconds = NEW.measured_seconds
   WHERE h.tenant_id = NEW.tenant_id AND h.volume_id = NEW.volume_id AND h.created_at = NEW.created_at;
  RETURN NULL;
END $$;

-- The history row follows every counted interval (measured_at changes), not only a changed ratio.
DROP TRIGGER recommendations_history_measured ON recommendations;
CREATE TRIGGER recommendations_history_measured
  AFTER UPDATE ON recommendations
  FOR EACH ROW WHEN (NEW.measured_hit_ratio IS NOT NULL AND OLD.measured_at IS DISTINCT FROM NEW.measured_at)
  EXECUTE FUNCTION record_recommendation_measurement();

-- Down Migration
DROP TRIGGER recommendations_history_measured ON recommendations;
CREATE TRIGGER recommendations_history_measured
  AFTER UPDATE ON recommendations
  FOR EACH ROW WHEN (NEW.measured_hit_ratio IS NOT NULL
    AND OLD.measured_hit_ratio IS DISTINCT FROM NEW.measured_hit_ratio)
  EXECUTE FUNCTION record_recommendation_measurement();
CREATE OR REPLACE FUNCTION record_recommendation_measurement() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  UPDATE recommendation_history h
     SET measured_hit_ratio = NEW.measured_hit_ratio, measured_at = NEW.measured_at
   WHERE h.tenant_id = NEW.tenant_id AND h.volume_id = NEW.volume_id AND h.created_at = NEW.created_at;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION measure_recommendation() RETURNS trigger
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

ALTER TABLE recommendation_history DROP COLUMN measured_seconds;
ALTER TABLE recommendations DROP COLUMN measured_seconds;
