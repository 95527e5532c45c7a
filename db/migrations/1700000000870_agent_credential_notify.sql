-- Up Migration
-- Ingest remembers the agent credentials it found live (AgentCredentialCache,
-- docs/fleet-scale.md "Credential cache") and forgets them all when this channel speaks:
-- an agent revoked, its credential replaced, or the agent deleted (with its tenant too).
-- The notification is sent when the changing transaction commits, before its client hears
-- of the commit, so a revoked agent is refused from then on.
CREATE FUNCTION notify_agent_credential() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('tierwise_agent_credential', '*');
  ELSE
    PERFORM pg_notify('tierwise_agent_credential', OLD.id::text);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER agents_credential_changed AFTER UPDATE OF revoked_at, token_sha256 ON agents
  FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.token_sha256 IS DISTINCT FROM NEW.token_sha256)
  EXECUTE FUNCTION notify_agent_credential();
CREATE TRIGGER agents_credential_deleted AFTER DELETE ON agents
  FOR EACH ROW EXECUTE FUNCTION notify_agent_credential();
CREATE TRIGGER agents_credential_truncated AFTER TRUNCATE ON agents
  FOR EACH STATEMENT EXECUTE FUNCTION notify_agent_credential();

-- Down Migration
DROP TRIGGER agents_credential_truncated ON agents;
DROP TRIGGER agents_credential_deleted ON agents;
DROP TRIGGER agents_credential_changed ON agents;
DROP FUNCTION notify_agent_credential();
