-- Up Migration
-- Issue 5: the closed loop per past prediction. recommendations keeps the measured hit ratio of
-- the current prediction only (a new prediction clears it); this copies it to the prediction's
-- recommendation_history row (same tenant, volume and created_at) whenever it is measured, so the
-- history shows predicted against measured for every prediction that ran.

ALTER TABLE recommendation_history
  ADD COLUMN measured_hit_ratio double precision CHECK (measured_hit_ratio BETWEEN 0 AND 1),
  ADD COLUMN measured_at timestamptz,
  ADD COLUMN hit_ratio_error double precision
    GENERATED ALWAYS AS (measured_hit_ratio - predicted_hit_ratio) STORED;

CREATE FUNCTION record_recommendation_measurement() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  UPDATE recommendation_history h
     SET measured_hit_ratio = NEW.measured_hit_ratio, measured_at = NEW.measured_at
   WHERE h.tenant_id = NEW.tenant_id AND h.volume_id = NEW.volume_id AND h.created_at = NEW.created_at;
  RETURN NULL;
END $$;

CREATE TRIGGER recommendations_history_measured
  AFTER UPDATE ON recommendations
  FOR EACH ROW WHEN (NEW.measured_hit_ratio IS NOT NULL
    AND OLD.measured_hit_ratio IS DISTINCT FROM NEW.measured_hit_ratio)
  EXECUTE FUNCTION record_recommendation_measurement();

-- Down Migration
DROP TRIGGER IF EXISTS recommendations_history_measured ON recommendations;
DROP FUNCTION IF EXISTS record_recommendation_measurement();
ALTER TABLE recommendation_history
  DROP COLUMN IF EXISTS hit_ratio_error, DROP COLUMN IF EXISTS measured_at, DROP COLUMN IF EXISTS measured_hit_ratio;
