-- Up Migration
-- The agent in the field (issue 4): one-time enrollment tokens an admin creates,
-- agents enrolled with them (a per-agent credential, stored as SHA-256 like
-- every credential), their health as they report it, and revocation.

-- An enrollment token: single use, expiring. Stored as its SHA-256 digest; the
-- prefix tells tokens apart in a list. used_at/agent_id are set by the one
-- enrollment that consumed it.
CREATE TABLE enrollment_tokens (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id       uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  name            text NOT NULL,
  token_sha256    text NOT NULL UNIQUE,
  token_prefix    text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  used_at         timestamptz,
  agent_id        uuid REFERENCES agents(id) ON DELETE SET NULL,
  created_by_kind text NOT NULL CHECK (created_by_kind IN ('user', 'api_key')),
  created_by_id   uuid NOT NULL,
  CONSTRAINT enrollment_tokens_expiry CHECK (expires_at > created_at)
);
CREATE INDEX enrollment_tokens_tenant ON enrollment_tokens (tenant_id, created_at DESC, id);

-- An enrolled agent: the keyed hash of its host (never the host name), its
-- version, and the health it last reported (PUT by the agent with its
-- credential): uptime in seconds, tier usage in bytes, errors counted since
-- it started and the last one.
ALTER TABLE agents
  ADD COLUMN host_id text,
  ADD COLUMN version text,
  ADD COLUMN enrolled_at timestamptz,
  ADD COLUMN last_report_at timestamptz,
  ADD COLUMN uptime_seconds bigint CHECK (uptime_seconds >= 0),
  ADD COLUMN tier_used_bytes bigint CHECK (tier_used_bytes >= 0),
  ADD COLUMN tier_capacity_bytes bigint CHECK (tier_capacity_bytes >= 0),
  ADD COLUMN volume_count integer CHECK (volume_count >= 0),
  ADD COLUMN error_count bigint CHECK (error_count >= 0),
  ADD COLUMN last_error text,
  ADD COLUMN last_error_at timestamptz;
CREATE INDEX agents_tenant ON agents (tenant_id, created_at DESC, id);

ALTER TABLE enrollment_tokens ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON enrollment_tokens USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());
GRANT SELECT, INSERT, UPDATE, DELETE ON enrollment_tokens TO tierwise_app;

-- Enrollment happens before the tenant is known: this SECURITY DEFINER function
-- consumes the token (row lock: two concurrent uses cannot both succeed) and
-- creates the agent with the credential digest the caller generated.
-- status: 'enrolled' (agent_id, tenant_id set), 'unknown', 'used' or 'expired'
-- (at: when it was used or expired).
CREATE FUNCTION enroll_agent(p_token_sha256 text, p_credential_sha256 text, p_host_id text, p_version text, p_name text)
  RETURNS TABLE (status text, agent_id uuid, tenant_id uuid, at timestamptz)
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public
  AS $$
DECLARE
  t enrollment_tokens%ROWTYPE;
  new_agent uuid;
BEGIN
  SELECT * INTO t FROM enrollment_tokens e WHERE e.token_sha256 = p_token_sha256 FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'unknown'::text, NULL::uuid, NULL::uuid, NULL::timestamptz;
  ELSIF t.used_at IS NOT NULL THEN
    RETURN QUERY SELECT 'used'::text, NULL::uuid, NULL::uuid, t.used_at;
  ELSIF t.expires_at <= now() THEN
    RETURN QUERY SELECT 'expired'::text, NULL::uuid, NULL::uuid, t.expires_at;
  ELSE
    INSERT INTO agents (tenant_id, name, token_sha256, host_id, version, enrolled_at)
      VALUES (t.tenant_id, p_name, p_credential_sha256, p_host_id, p_version, now())
      RETURNING id INTO new_agent;
    UPDATE enrollment_tokens SET used_at = now(), agent_id = new_agent WHERE id = t.id;
    RETURN QUERY SELECT 'enrolled'::text, new_agent, t.tenant_id, now();
  END IF;
END $$;

-- The agent a credential belongs to, live or revoked, so that a refusal can say
-- why (authenticate_agent returns live agents only).
CREATE FUNCTION agent_credential_status(p_token_sha256 text)
  RETURNS TABLE (agent_id uuid, tenant_id uuid, revoked_at timestamptz)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
  AS $$ SELECT id, tenant_id, revoked_at FROM agents WHERE token_sha256 = p_token_sha256 $$;

REVOKE ALL ON FUNCTION enroll_agent(text, text, text, text, text), agent_credential_status(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION enroll_agent(text, text, text, text, text), agent_credential_status(text) TO tierwise_app;

-- Down Migration
DROP FUNCTION IF EXISTS enroll_agent(text, text, text, text, text), agent_credential_status(text);
DROP TABLE IF EXISTS enrollment_tokens;
DROP INDEX IF EXISTS agents_tenant;
ALTER TABLE agents DROP COLUMN IF EXISTS host_id, DROP COLUMN IF EXISTS version, DROP COLUMN IF EXISTS enrolled_at,
  DROP COLUMN IF EXISTS last_report_at, DROP COLUMN IF EXISTS uptime_seconds, DROP COLUMN IF EXISTS tier_used_bytes,
  DROP COLUMN IF EXISTS tier_capacity_bytes, DROP COLUMN IF EXISTS volume_count, DROP COLUMN IF EXISTS error_count,
  DROP COLUMN IF EXISTS last_error, DROP COLUMN IF EXISTS last_error_at;
