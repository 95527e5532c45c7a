-- Up Migration
-- Issue 17 (docs/analytics.md "The closed loop"): a new prediction for the tier already applied
-- (migration 805) stayed applied, but its measurement started from nothing, and the prediction it
-- replaced kept only what was measured before the replacement. A prediction replaced seconds
-- after the agent applied it was then "measured" over the resized tier's first interval alone,
-- and its successor over the rest: neither over the run of the tier that was applied.
-- What is measured is the tier that runs, and the same tier runs on: the measured hits, misses and
-- seconds now carry over with the decision, so the new prediction (and its history row, which
-- starts with them) goes on from the applied one's measurement; its error is that measurement
-- minus its own prediction. The carry is a BEFORE trigger so the row is written once, carried.
-- SECURITY DEFINER: the jobs' role writes recommendations and may only read decisions (797).
CREATE OR REPLACE FUNCTION carry_applied_decision() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  INSERT INTO recommendation_decisions (tenant_id, volume_id, recommendation_created_at, decision, reason,
    policy_version, decided_at, actor_kind, actor_id)
  SELECT d.tenant_id, d.volume_id, NEW.created_at, d.decision, d.reason, d.policy_version, d.decided_at,
         d.actor_kind, d.actor_id
    FROM recommendation_decisions d
   WHERE d.tenant_id = OLD.tenant_id AND d.volume_id = OLD.volume_id
     AND d.recommendation_created_at = OLD.created_at AND d.decision = 'applied'
  ON CONFLICT DO NOTHING;
  IF FOUND THEN
    NEW.measured_hits := OLD.measured_hits;
    NEW.measured_misses := OLD.measured_misses;
    NEW.measured_seconds := OLD.measured_seconds;
    NEW.measured_hit_ratio := OLD.measured_hit_ratio;
    NEW.measured_at := OLD.measured_at;
  END IF;
  RETURN NEW;
END $$;

DROP TRIGGER recommendations_carry_applied ON recommendations;
CREATE TRIGGER recommendations_carry_applied
  BEFORE UPDATE ON recommendations
  FOR EACH ROW WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at
    AND OLD.tier_bytes = NEW.tier_bytes AND OLD.media = NEW.media AND OLD.policy = NEW.policy
    AND OLD.replicas = NEW.replicas AND OLD.eviction IS NOT DISTINCT FROM NEW.eviction)
  EXECUTE FUNCTION carry_applied_decision();

-- A prediction's history row starts with its measurement: none, or the one carried over.
CREATE OR REPLACE FUNCTION record_recommendation_history() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO recommendation_history (tenant_id, volume_id, window_name, tier_bytes, media, policy,
    eviction, replicas, predicted_hit_ratio, achievable_hit_ratio, target_hit_ratio, offloaded_iops,
    offloaded_bytes_per_second, predicted_latency_us, datastore_latency_us, tier_write_bytes_per_day,
    inputs, explanation, measured_hit_ratio, measured_at, measured_seconds, created_at)
  VALUES (NEW.tenant_id, NEW.volume_id, NEW.window_name, NEW.tier_bytes, NEW.media, NEW.policy,
    NEW.eviction, NEW.replicas, NEW.predicted_hit_ratio, NEW.achievable_hit_ratio, NEW.target_hit_ratio,
    NEW.offloaded_iops, NEW.offloaded_bytes_per_second, NEW.predicted_latency_us,
    NEW.datastore_latency_us, NEW.tier_write_bytes_per_day, NEW.inputs, NEW.explanation,
    NEW.measured_hit_ratio, NEW.measured_at, NEW.measured_seconds, NEW.created_at);
  RETURN NULL;
END $$;

-- The history row follows every change of the measurement. It followed measured_at, which is the
-- transaction's now(): the metrics job's upsert fires the interval triggers of its UPDATE and its
-- INSERT (migration 885) in one transaction, and the second one's intervals did not reach the
-- history row until a later transaction measured again.
DROP TRIGGER recommendations_history_measured ON recommendations;
CREATE TRIGGER recommendations_history_measured
  AFTER UPDATE ON recommendations
  FOR EACH ROW WHEN (NEW.measured_hit_ratio IS NOT NULL
    AND (OLD.measured_hits, OLD.measured_misses, OLD.measured_seconds)
      IS DISTINCT FROM (NEW.measured_hits, NEW.measured_misses, NEW.measured_seconds))
  EXECUTE FUNCTION record_recommendation_measurement();

-- Down Migration
DROP TRIGGER recommendations_history_measured ON recommendations;
CREATE TRIGGER recommendations_history_measured
  AFTER UPDATE ON recommendations
  FOR EACH ROW WHEN (NEW.measured_hit_ratio IS NOT NULL AND OLD.measured_at IS DISTINCT FROM NEW.measured_at)
  EXECUTE FUNCTION record_recommendation_measurement();
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
DROP TRIGGER recommendations_carry_applied ON recommendations;
CREATE OR REPLACE FUNCTION carry_applied_decision() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  INSERT INTO recommendation_decisions (tenant_id, volume_id, recommendation_created_at, decision, reason,
    policy_version, decided_at, actor_kind, actor_id)
  SELECT d.tenant_id, d.volume_id, NEW.created_at, d.decision, d.reason, d.policy_version, d.decided_at,
         d.actor_kind, d.actor_id
    FROM recommendation_decisions d
   WHERE d.tenant_id = OLD.tenant_id AND d.volume_id = OLD.volume_id
     AND d.recommendation_created_at = OLD.created_at AND d.decision = 'applied'
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER recommendations_carry_applied
  AFTER UPDATE ON recommendations
  FOR EACH ROW WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at
    AND OLD.tier_bytes = NEW.tier_bytes AND OLD.media = NEW.media AND OLD.policy = NEW.policy
    AND OLD.replicas = NEW.replicas AND OLD.eviction IS NOT DISTINCT FROM NEW.eviction)
  EXECUTE FUNCTION carry_applied_decision();
