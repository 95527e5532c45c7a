-- Up Migration
-- Issue 15: a recommendation stays applied while the tier it asked for runs. The jobs write a new
-- prediction (a new created_at) when the predicted hit ratio of the same tier moves by more than
-- TierRecommender.HOLD_HIT_RATIO_TOLERANCE; before, that made the recommendation `open` again
-- although the agent already ran it, and its measurement started from nothing. Now a new
-- prediction for the same tier (size, media, write policy, replicas, eviction policy) as an
-- applied one is applied too: the decision is carried over with its policy version and time, so
-- measure_recommendation() (migration 795) goes on measuring the new prediction.
-- SECURITY DEFINER: the jobs' role writes recommendations and may only read decisions (797).
CREATE FUNCTION carry_applied_decision() RETURNS trigger
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

-- Down Migration
DROP TRIGGER recommendations_carry_applied ON recommendations;
DROP FUNCTION carry_applied_decision();
