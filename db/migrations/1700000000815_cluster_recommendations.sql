-- Up Migration
-- Issue 15 (shared tiers): a cluster's tier is shared by its volumes, so it is recommended from
-- their merged reference stream (stream-jobs ClusterStream: every eviction policy simulated, the
-- merged I/O mix) as a volume's tier is from its own, instead of as the sum of the volumes'
-- recommendations. eviction_points as in volume_mrcs (migration 800); cluster_recommendations
-- holds the current recommendation per cluster, the columns of recommendations that apply.

ALTER TABLE cluster_mrcs ADD COLUMN eviction_points jsonb NOT NULL DEFAULT '{}'
  CONSTRAINT cluster_mrcs_eviction_points_check CHECK (jsonb_typeof(eviction_points) = 'object'
    AND eviction_points - ARRAY['lru', 's3-fifo', 'arc', '2q', 'sieve'] = '{}'::jsonb);

CREATE TABLE cluster_recommendations (
  tenant_id                  uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  cluster_id                 text NOT NULL,
  window_name                text NOT NULL,
  volumes                    integer NOT NULL CHECK (volumes >= 1),  -- volumes merged so far
  tier_bytes                 bigint NOT NULL CHECK (tier_bytes > 0),
  media                      text NOT NULL CHECK (media IN ('ram', 'nvme')),
  policy                     text NOT NULL CHECK (policy IN ('write-through', 'write-back')),
  eviction                   text NOT NULL CHECK (eviction IN ('lru', 's3-fifo', 'arc', '2q', 'sieve')),
  replicas                   integer NOT NULL CHECK (replicas >= 0),
  predicted_hit_ratio        double precision NOT NULL CHECK (predicted_hit_ratio BETWEEN 0 AND 1),
  achievable_hit_ratio       double precision NOT NULL CHECK (achievable_hit_ratio BETWEEN 0 AND 1),
  target_hit_ratio           double precision NOT NULL CHECK (target_hit_ratio BETWEEN 0 AND 1),
  offloaded_iops             double precision NOT NULL,
  offloaded_bytes_per_second double precision NOT NULL,
  predicted_latency_us       double precision,
  datastore_latency_us       double precision,
  tier_write_bytes_per_day   double precision CHECK (tier_write_bytes_per_day >= 0),
  inputs                     jsonb NOT NULL,
  explanation                text NOT NULL,
  created_at                 timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, cluster_id)
);
ALTER TABLE cluster_recommendations ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON cluster_recommendations
  USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());
GRANT SELECT ON cluster_recommendations TO tierwise_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON cluster_recommendations TO tierwise_jobs;

-- Down Migration
DROP TABLE IF EXISTS cluster_recommendations;
ALTER TABLE cluster_mrcs DROP COLUMN eviction_points;
