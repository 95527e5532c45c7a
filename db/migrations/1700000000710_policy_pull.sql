-- Up Migration
-- Issue 4: policy pull. Agents long-poll their volumes' desired policies (services/ingest,
-- GET /v1/agent/policies) and report what they applied (POST /v1/agent/policies/applied).
-- applied_error: what the agent could not apply of applied_version (e.g. a tier size larger
-- than the configured device); null when it applied all of it. applied_agent_id: the agent that
-- reported it. A new desired version wakes the waiting long-polls through NOTIFY
-- tierwise_volume_policy (payload: the tenant id), sent at commit.

ALTER TABLE volume_policies
  ADD COLUMN applied_error text CHECK (applied_error IS NULL OR length(applied_error) BETWEEN 1 AND 1000),
  ADD COLUMN applied_agent_id uuid REFERENCES agents(id) ON DELETE SET NULL;

CREATE FUNCTION notify_volume_policy() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.version <> OLD.version THEN
    PERFORM pg_notify('tierwise_volume_policy', NEW.tenant_id::text);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER volume_policies_notify
  AFTER INSERT OR UPDATE OF version ON volume_policies
  FOR EACH ROW EXECUTE FUNCTION notify_volume_policy();

-- Down Migration
DROP TRIGGER IF EXISTS volume_policies_notify ON volume_policies;
DROP FUNCTION IF EXISTS notify_volume_policy();
ALTER TABLE volume_policies DROP COLUMN IF EXISTS applied_agent_id, DROP COLUMN IF EXISTS applied_error;
