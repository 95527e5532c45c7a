-- Up Migration
-- Public API (issue 6): API key bookkeeping, desired volume policies, decisions on
-- recommendations, the audit log and idempotency keys. Every table carries
-- tenant_id under row-level security like the spine's.

-- API keys: a short visible prefix (so a list can tell keys apart without the
-- secret) and who created the key.
ALTER TABLE api_keys
  ADD COLUMN key_prefix text,
  ADD COLUMN created_by_kind text CHECK (created_by_kind IN ('user', 'api_key')),
  ADD COLUMN created_by_id uuid;
CREATE INDEX api_keys_tenant ON api_keys (tenant_id, created_at DESC, id);

-- last_used_at is throttled: stamped at most once a minute per key, so a busy
-- key does not write a row version on every request.
CREATE OR REPLACE FUNCTION authenticate_api_key(p_key_sha256 text)
  RETURNS TABLE (api_key_id uuid, tenant_id uuid, scope text)
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public
  AS $$
BEGIN
  UPDATE api_keys k SET last_used_at = now()
   WHERE k.key_sha256 = p_key_sha256 AND k.revoked_at IS NULL
     AND (k.last_used_at IS NULL OR k.last_used_at < now() - interval '60 seconds');
  RETURN QUERY SELECT k.id, k.tenant_id, k.scope FROM api_keys k
                WHERE k.key_sha256 = p_key_sha256 AND k.revoked_at IS NULL;
END $$;

-- The desired cache policy of a volume, versioned: every change bumps
-- version; the agent pulls it, applies it and reports applied_version and
-- applied_at. mode write-through (WT) or write-back (WB+n: writes acked after
-- landing in the local tier and on write_back_copies peers, destaged later).
CREATE TABLE volume_policies (
  tenant_id         uuid NOT NULL,
  volume_id         text NOT NULL,
  version           integer NOT NULL CHECK (version > 0),
  mode              text NOT NULL CHECK (mode IN ('write-through', 'write-back')),
  write_back_copies integer CHECK (write_back_copies BETWEEN 0 AND 8),
  tier_bytes        bigint NOT NULL CHECK (tier_bytes > 0),
  media             text NOT NULL CHECK (media IN ('ram', 'nvme')),
  eviction          text NOT NULL CHECK (eviction IN ('lru', 's3-fifo', 'arc', '2q')),
  source            text NOT NULL CHECK (source IN ('manual', 'recommendation')),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  updated_by_kind   text NOT NULL CHECK (updated_by_kind IN ('user', 'api_key')),
  updated_by_id     uuid NOT NULL,
  applied_version   integer,
  applied_at        timestamptz,
  PRIMARY KEY (tenant_id, volume_id),
  FOREIGN KEY (tenant_id, volume_id) REFERENCES volumes (tenant_id, volume_id) ON DELETE CASCADE,
  CONSTRAINT volume_policies_copies CHECK ((mode = 'write-back') = (write_back_copies IS NOT NULL)),
  CONSTRAINT volume_policies_applied CHECK (applied_version IS NULL OR applied_version <= version)
);

-- What a tenant decided about a recommendation. A recommendation is known by
-- its volume and created_at (the stream jobs overwrite it in place when it
-- changes materially), so a decision holds for that version only and a new
-- recommendation is open again.
CREATE TABLE recommendation_decisions (
  tenant_id         uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  volume_id         text NOT NULL,
  recommendation_created_at timestamptz NOT NULL,
  decision          text NOT NULL CHECK (decision IN ('applied', 'dismissed')),
  reason            text,
  policy_version    integer,
  decided_at        timestamptz NOT NULL DEFAULT now(),
  actor_kind        text NOT NULL CHECK (actor_kind IN ('user', 'api_key')),
  actor_id          uuid NOT NULL,
  PRIMARY KEY (tenant_id, volume_id, recommendation_created_at)
);

-- Every change made through the api: who (actor), what (action, target,
-- before/after summary), when, from where (client address, user agent).
-- Append-only for the app role (no UPDATE or DELETE grant below).
CREATE TABLE audit_log (
  id          bigserial PRIMARY KEY,
  tenant_id   uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  at          timestamptz NOT NULL DEFAULT now(),
  actor_kind  text NOT NULL CHECK (actor_kind IN ('user', 'api_key')),
  actor_id    uuid NOT NULL,
  action      text NOT NULL,
  target_kind text NOT NULL,
  target_id   text NOT NULL,
  before      jsonb,
  after       jsonb,
  ip          inet,
  user_agent  text
);
CREATE INDEX audit_log_tenant ON audit_log (tenant_id, id DESC);

-- Idempotency-Key of POST requests, per tenant: the first request's fingerprint
-- (SHA-256 of method, path and body) and, once it finished, its answer; a
-- retry with the same key and body gets that answer again until expires_at.
-- An answer holding a secret (a new API key) is stored without it
-- (response_redacted) and is never replayed.
CREATE TABLE idempotency_keys (
  tenant_id      uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  key            text NOT NULL,
  fingerprint    text NOT NULL,
  response_status integer,
  response_body  jsonb,
  response_redacted boolean NOT NULL DEFAULT false,
  created_at     timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (tenant_id, expires_at);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['volume_policies', 'recommendation_decisions', 'audit_log', 'idempotency_keys'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())', t);
  END LOOP;
END $$;

GRANT SELECT, INSERT, UPDATE, DELETE ON volume_policies, recommendation_decisions, idempotency_keys TO tierwise_app;
GRANT SELECT, INSERT ON audit_log TO tierwise_app;
GRANT USAGE ON SEQUENCE audit_log_id_seq TO tierwise_app;

-- Down Migration
DROP TABLE IF EXISTS idempotency_keys, audit_log, recommendation_decisions, volume_policies;
CREATE OR REPLACE FUNCTION authenticate_api_key(p_key_sha256 text)
  RETURNS TABLE (api_key_id uuid, tenant_id uuid, scope text)
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public
  AS $$ UPDATE api_keys SET last_used_at = now()
        WHERE key_sha256 = p_key_sha256 AND revoked_at IS NULL
        RETURNING id, tenant_id, scope $$;
DROP INDEX IF EXISTS api_keys_tenant;
ALTER TABLE api_keys DROP COLUMN IF EXISTS key_prefix, DROP COLUMN IF EXISTS created_by_kind, DROP COLUMN IF EXISTS created_by_id;
