-- Up Migration
-- Ingest no longer records each batch it accepts: the jobs drop a resent batch (a resent metrics
-- interval by its id, a resent reference batch by its sequence; docs/fleet-scale.md
-- "Deduplication"), so ingest answers at Kafka's ack without a PostgreSQL transaction per batch.
-- When an agent's telemetry last reached ingest (GET /v1/agents) is now the newest last_seen of
-- the hosts it reports (ingest's inventory: at most a minute old); this index makes that one
-- index probe per listed agent.
DROP TABLE ingested_batches;
CREATE INDEX hosts_agent_last_seen_idx ON hosts (tenant_id, agent_id, last_seen DESC);

-- Down Migration
DROP INDEX hosts_agent_last_seen_idx;
CREATE TABLE ingested_batches (
  tenant_id   uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  kind        text NOT NULL CHECK (kind IN ('metrics', 'refs')),
  batch_id    text NOT NULL,
  agent_id    uuid NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, kind, batch_id)
);
CREATE INDEX ingested_batches_agent_received_idx ON ingested_batches (tenant_id, agent_id, received_at DESC);
ALTER TABLE ingested_batches ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON ingested_batches USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());
GRANT SELECT, INSERT, UPDATE, DELETE ON ingested_batches TO tierwise_app, tierwise_jobs;
