-- Up Migration
-- Tierwise schema, first cut (the spine).
--
-- Roles (created by infra/local/postgres.sh or by Terraform, not here):
--   tierwise_owner  owns the tables, runs migrations;
--   tierwise_app    the api and ingest: row-level security applies, every
--                   transaction sets tierwise.tenant_id;
--   tierwise_jobs   the Flink jobs: write results for every tenant (BYPASSRLS).
-- Time-series tables are PARTITION BY RANGE on their time column so that a
-- TimescaleDB hypertable (create_hypertable on the same column) can replace
-- them where TimescaleDB exists; pg_partman manages partitions here.

CREATE FUNCTION current_tenant_id() RETURNS uuid
  LANGUAGE sql STABLE
  AS $$ SELECT nullif(current_setting('tierwise.tenant_id', true), '')::uuid $$;

CREATE TABLE tenants (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- An agent's credential: the token is stored as its SHA-256 hex digest.
CREATE TABLE agents (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id   uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  name        text NOT NULL,
  token_sha256 text NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz
);

-- Public API keys, stored as SHA-256 hex digests; scope 'read' or 'read-write'.
CREATE TABLE api_keys (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id   uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  name        text NOT NULL,
  key_sha256  text NOT NULL UNIQUE,
  scope       text NOT NULL CHECK (scope IN ('read', 'read-write')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at  timestamptz
);

-- Batch ids ingest has accepted: a retried batch is accepted once.
CREATE TABLE ingested_batches (
  tenant_id   uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  kind        text NOT NULL CHECK (kind IN ('metrics', 'refs')),
  batch_id    text NOT NULL,
  agent_id    uuid NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, kind, batch_id)
);

-- Inventory, written by ingest as batches arrive. Names only when opted in.
CREATE TABLE hosts (
  tenant_id   uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  host_id     text NOT NULL,
  agent_id    uuid REFERENCES agents(id) ON DELETE SET NULL,
  display_name text,
  first_seen  timestamptz NOT NULL DEFAULT now(),
  last_seen   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, host_id)
);

CREATE TABLE volumes (
  tenant_id   uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  volume_id   text NOT NULL,
  host_id     text NOT NULL,
  display_name text,
  first_seen  timestamptz NOT NULL DEFAULT now(),
  last_seen   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, volume_id)
);

-- 10-second I/O points per volume (Flink metrics job). Counts in I/Os,
-- bytes in bytes, hits/misses in 4 KiB blocks.
CREATE TABLE volume_metrics_10s (
  tenant_id      uuid NOT NULL,
  volume_id      text NOT NULL,
  interval_start timestamptz NOT NULL,
  interval_seconds real NOT NULL,
  read_ops       bigint NOT NULL,
  write_ops      bigint NOT NULL,
  read_bytes     bigint NOT NULL,
  write_bytes    bigint NOT NULL,
  cache_hits     bigint NOT NULL,
  cache_misses   bigint NOT NULL,
  read_cache_hits   bigint NOT NULL,
  read_cache_misses bigint NOT NULL,
  evicted_bytes  bigint NOT NULL,
  occupancy_bytes bigint NOT NULL,
  capacity_bytes bigint NOT NULL,
  PRIMARY KEY (tenant_id, volume_id, interval_start)
) PARTITION BY RANGE (interval_start);
CREATE TABLE volume_metrics_10s_default PARTITION OF volume_metrics_10s DEFAULT;

-- Totals per volume over everything received (Flink metrics job, upserted).
CREATE TABLE volume_io_stats (
  tenant_id      uuid NOT NULL,
  volume_id      text NOT NULL,
  first_interval timestamptz NOT NULL,
  last_interval  timestamptz NOT NULL,
  read_ops       bigint NOT NULL,
  write_ops      bigint NOT NULL,
  read_bytes     bigint NOT NULL,
  write_bytes    bigint NOT NULL,
  cache_hits     bigint NOT NULL,
  cache_misses   bigint NOT NULL,
  read_cache_hits   bigint NOT NULL,
  read_cache_misses bigint NOT NULL,
  evicted_bytes  bigint NOT NULL,
  capacity_bytes bigint NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, volume_id)
);

-- Block-size distribution per volume, direction and vscsiStats ioLength bin
-- (bin_label '512' .. '524288' or '>524288'; bin_upper_bytes NULL for the last).
CREATE TABLE volume_block_sizes (
  tenant_id      uuid NOT NULL,
  volume_id      text NOT NULL,
  direction      text NOT NULL CHECK (direction IN ('read', 'write')),
  bin_label      text NOT NULL,
  bin_upper_bytes bigint,
  ops            bigint NOT NULL,
  bytes          bigint NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, volume_id, direction, bin_label)
);

-- Working set size per volume and window ('all' = everything received so far),
-- estimated from SHARDS samples: distinct sampled blocks / R x 4096 bytes.
CREATE TABLE volume_working_sets (
  tenant_id      uuid NOT NULL,
  volume_id      text NOT NULL,
  window_name    text NOT NULL,
  window_start   timestamptz NOT NULL,
  window_end     timestamptz NOT NULL,
  wss_bytes      bigint NOT NULL,
  wss_read_bytes bigint NOT NULL,
  wss_write_bytes bigint NOT NULL,
  sampled_references bigint NOT NULL,
  sampling_rate  double precision NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, volume_id, window_name)
);

-- LRU miss ratio curve per volume and window: points is a JSON array of
-- {"cache_bytes": <bytes>, "miss_ratio": <0..1>} in increasing cache_bytes.
CREATE TABLE volume_mrcs (
  tenant_id      uuid NOT NULL,
  volume_id      text NOT NULL,
  window_name    text NOT NULL,
  method         text NOT NULL,          -- 'shards-fixed-rate'
  sampling_rate  double precision NOT NULL,
  points         jsonb NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, volume_id, window_name)
);

-- Current tier recommendation per volume (history comes with issue 5).
CREATE TABLE recommendations (
  tenant_id      uuid NOT NULL,
  volume_id      text NOT NULL,
  tier_bytes     bigint NOT NULL,
  media          text NOT NULL CHECK (media IN ('ram', 'nvme')),
  policy         text NOT NULL,          -- 'write-through' | 'write-back'
  predicted_hit_ratio  double precision NOT NULL,
  achievable_hit_ratio double precision NOT NULL,
  target_hit_ratio     double precision NOT NULL,
  inputs         jsonb NOT NULL,
  explanation    text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, volume_id)
);

-- Row-level security: the second wall behind the code's own scoping.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['agents','api_keys','ingested_batches','hosts','volumes',
      'volume_metrics_10s','volume_io_stats','volume_block_sizes',
      'volume_working_sets','volume_mrcs','recommendations'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())', t);
  END LOOP;
END $$;
ALTER TABLE tenants ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON tenants USING (id = current_tenant_id());

-- Credential look-ups happen before the tenant is known: SECURITY DEFINER
-- functions return only the matching row.
CREATE FUNCTION authenticate_agent(p_token_sha256 text)
  RETURNS TABLE (agent_id uuid, tenant_id uuid)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
  AS $$ SELECT id, tenant_id FROM agents
        WHERE token_sha256 = p_token_sha256 AND revoked_at IS NULL $$;

CREATE FUNCTION authenticate_api_key(p_key_sha256 text)
  RETURNS TABLE (api_key_id uuid, tenant_id uuid, scope text)
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public
  AS $$ UPDATE api_keys SET last_used_at = now()
        WHERE key_sha256 = p_key_sha256 AND revoked_at IS NULL
        RETURNING id, tenant_id, scope $$;

GRANT USAGE ON SCHEMA public TO tierwise_app, tierwise_jobs;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO tierwise_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO tierwise_jobs;
GRANT EXECUTE ON FUNCTION authenticate_agent(text), authenticate_api_key(text), current_tenant_id() TO tierwise_app, tierwise_jobs;

-- Down Migration
DROP TABLE IF EXISTS recommendations, volume_mrcs, volume_working_sets, volume_block_sizes,
  volume_io_stats, volume_metrics_10s, volumes, hosts, ingested_batches, api_keys, agents, tenants CASCADE;
DROP FUNCTION IF EXISTS authenticate_agent(text), authenticate_api_key(text), current_tenant_id();
