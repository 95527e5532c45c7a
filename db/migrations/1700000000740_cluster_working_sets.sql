-- Up Migration
-- Issue 5: per-cluster working sets and miss ratio curves. A cluster's tier is shared by its hosts,
-- so the working-set job merges the sampled reference streams of the cluster's volumes in time
-- order (stream-jobs ClusterStream) and writes one row per (cluster, window) here, as it does per
-- volume in volume_working_sets / volume_mrcs. cluster_id is the agents' pseudonymous
-- tierwise.cluster.id (hex of a keyed hash of the cluster name).

CREATE TABLE cluster_working_sets (
  tenant_id          uuid NOT NULL,
  cluster_id         text NOT NULL,
  window_name        text NOT NULL,
  window_start       timestamptz NOT NULL,
  window_end         timestamptz NOT NULL,
  volumes            integer NOT NULL CHECK (volumes >= 1),  -- volumes merged so far
  wss_bytes          bigint NOT NULL,
  wss_read_bytes     bigint NOT NULL,
  wss_write_bytes    bigint NOT NULL,
  sampled_references bigint NOT NULL,
  sampling_rate      double precision NOT NULL,
  state_bytes        bigint NOT NULL,
  updated_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, cluster_id, window_name)
);

-- points: a JSON array of {"cache_bytes": <bytes>, "miss_ratio": <0..1>}, increasing cache_bytes.
CREATE TABLE cluster_mrcs (
  tenant_id      uuid NOT NULL,
  cluster_id     text NOT NULL,
  window_name    text NOT NULL,
  method         text NOT NULL,
  sampling_rate  double precision NOT NULL,
  points         jsonb NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, cluster_id, window_name)
);

ALTER TABLE cluster_working_sets ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON cluster_working_sets
  USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());
ALTER TABLE cluster_mrcs ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON cluster_mrcs
  USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());
GRANT SELECT, INSERT, UPDATE, DELETE ON cluster_working_sets, cluster_mrcs TO tierwise_app, tierwise_jobs;

-- Down Migration
DROP TABLE IF EXISTS cluster_mrcs, cluster_working_sets;
