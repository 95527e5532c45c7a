-- Up Migration
-- Issue 17 (docs/fleet-scale.md "What is left"): the metrics job writes volume_metrics_10s in
-- multi-row upserts, and the row-level trigger of migration 795 ran measure_recommendation()'s
-- UPDATE once per interval row, costing more than the row's own insert
-- (bench/results/2026-12-06-measurement-trigger-per-statement.md). It now runs once per
-- statement over the statement's transition tables, as migration 875 did for the working-set
-- history; what it measures is unchanged (migration 795's rules 1-4): an interval counts for the
-- volume's current recommendation when that was applied, the agent runs the decision's policy
-- version since before the interval, the tier is warm, and the interval ran at the recommended
-- size; an inserted interval adds its hits, misses and seconds, a rewritten one the change of its
-- hits and misses. A statement's intervals of one volume are added up before the recommendation
-- is updated (a set-based UPDATE writes a row once), so it gets one row version per statement.
-- INSERT and UPDATE fire separate triggers (a trigger with transition tables has one event).
-- The counts one interval adds to its volume's measurement: an inserted interval's own, with its
-- seconds; a rewritten one's change, with none.
CREATE TYPE measured_interval AS (
  tenant_id uuid, volume_id text, interval_start timestamptz, capacity_bytes bigint, occupancy_bytes bigint,
  hits bigint, misses bigint, read_hits bigint, read_misses bigint, seconds real);

-- Adds the intervals that count (rules 1-4) to their volumes' current recommendations.
CREATE FUNCTION measure_intervals(intervals measured_interval[]) RETURNS void
  LANGUAGE plpgsql AS $$
DECLARE
  warm_up CONSTANT interval := interval '10 minutes';
BEGIN
  UPDATE recommendations r
     SET measured_hits = r.measured_hits + m.hits,
         measured_misses = r.measured_misses + m.misses,
         measured_seconds = r.measured_seconds + m.seconds,
         measured_hit_ratio = CASE WHEN r.measured_hits + m.hits + r.measured_misses + m.misses > 0
           THEN (r.measured_hits + m.hits)::double precision / (r.measured_hits + m.hits + r.measured_misses + m.misses)
           ELSE r.measured_hit_ratio END,
         measured_at = CASE WHEN r.measured_hits + m.hits + r.measured_misses + m.misses > 0
           THEN now() ELSE r.measured_at END
    FROM (SELECT r.tenant_id, r.volume_id,
                 sum(CASE WHEN r.policy = 'write-back' THEN i.hits ELSE i.read_hits END) AS hits,
                 sum(CASE WHEN r.policy = 'write-back' THEN i.misses ELSE i.read_misses END) AS misses,
                 sum(i.seconds) AS seconds
            FROM unnest(intervals) i
            JOIN recommendations r
              ON r.tenant_id = i.tenant_id AND r.volume_id = i.volume_id AND r.tier_bytes = i.capacity_bytes
            JOIN recommendation_decisions d
              ON d.tenant_id = r.tenant_id AND d.volume_id = r.volume_id
             AND d.recommendation_created_at = r.created_at AND d.decision = 'applied'
            JOIN volume_policies p
              ON p.tenant_id = r.tenant_id AND p.volume_id = r.volume_id
             AND p.applied_version = d.policy_version AND i.interval_start >= p.applied_at
           WHERE i.occupancy_bytes >= i.capacity_bytes OR i.interval_start >= p.applied_at + warm_up
           GROUP BY r.tenant_id, r.volume_id) m
   WHERE r.tenant_id = m.tenant_id AND r.volume_id = m.volume_id;
END $$;

CREATE FUNCTION measure_recommendations() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  -- An INSERT ... ON CONFLICT fires both triggers, often one of them over no rows.
  IF NOT EXISTS (SELECT 1 FROM new_rows) THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    PERFORM measure_intervals(ARRAY(
      SELECT ROW(tenant_id, volume_id, interval_start, capacity_bytes, occupancy_bytes, cache_hits, cache_misses,
                 read_cache_hits, read_cache_misses, interval_seconds)::measured_interval
        FROM new_rows));
  ELSE
    PERFORM measure_intervals(ARRAY(
      SELECT ROW(n.tenant_id, n.volume_id, n.interval_start, n.capacity_bytes, n.occupancy_bytes,
                 n.cache_hits - o.cache_hits, n.cache_misses - o.cache_misses,
                 n.read_cache_hits - o.read_cache_hits, n.read_cache_misses - o.read_cache_misses, 0)::measured_interval
        FROM new_rows n JOIN old_rows o USING (tenant_id, volume_id, interval_start)));
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER volume_metrics_measure_recommendation ON volume_metrics_10s;
DROP FUNCTION measure_recommendation();
CREATE TRIGGER volume_metrics_measure_recommendation AFTER INSERT ON volume_metrics_10s
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION measure_recommendations();
CREATE TRIGGER volume_metrics_measure_recommendation_update AFTER UPDATE ON volume_metrics_10s
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION measure_recommendations();

-- Down Migration
DROP TRIGGER volume_metrics_measure_recommendation_update ON volume_metrics_10s;
DROP TRIGGER volume_metrics_measure_recommendation ON volume_metrics_10s;
DROP FUNCTION measure_recommendations();
DROP FUNCTION measure_intervals(measured_interval[]);
DROP TYPE measured_interval;
CREATE FUNCTION measure_recommendation() RETURNS trigger
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
CREATE TRIGGER volume_metrics_measure_recommendation
  AFTER INSERT OR UPDATE ON volume_metrics_10s
  FOR EACH ROW EXECUTE FUNCTION measure_recommendation();
