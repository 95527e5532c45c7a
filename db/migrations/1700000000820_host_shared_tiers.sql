-- Up Migration
-- Issue 15 (shared tiers): a host's tier device is shared by the volumes on it (as FVP's flash
-- was), so the working-set job merges the sampled reference streams of each host's volumes
-- (stream-jobs SharedTier.HOST, keyed by the agents' pseudonymous host id) and recommends the
-- host's tier from them, as it does a cluster's (migrations 740 and 815): the same columns, keyed
-- by (tenant_id, host_id).

CREATE TABLE host_working_sets (LIKE cluster_working_sets INCLUDING DEFAULTS INCLUDING CONSTRAINTS);
ALTER TABLE host_working_sets RENAME COLUMN cluster_id TO host_id;
ALTER TABLE host_working_sets ADD PRIMARY KEY (tenant_id, host_id, window_name);

CREATE TABLE host_mrcs (LIKE cluster_mrcs INCLUDING DEFAULTS INCLUDING CONSTRAINTS);
ALTER TABLE host_mrcs RENAME COLUMN cluster_id TO host_id;
ALTER TABLE host_mrcs ADD PRIMARY KEY (tenant_id, host_id, window_name);

CREATE TABLE host_recommendations (LIKE cluster_recommendations INCLUDING DEFAULTS INCLUDING CONSTRAINTS);
ALTER TABLE host_recommendations RENAME COLUMN cluster_id TO host_id;
ALTER TABLE host_recommendations ADD PRIMARY KEY (tenant_id, host_id);
ALTER TABLE host_recommendations ADD FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE;

ALTER TABLE host_working_sets ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON host_working_sets
  USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());
ALTER TABLE host_mrcs ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON host_mrcs
  USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());
ALTER TABLE host_recommendations ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON host_recommendations
  USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());
GRANT SELECT, INSERT, UPDATE, DELETE ON host_working_sets, host_mrcs TO tierwise_app, tierwise_jobs;
GRANT SELECT ON host_recommendations TO tierwise_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON host_recommendations TO tierwise_jobs;

-- Down Migration
DROP TABLE IF EXISTS host_recommendations, host_mrcs, host_working_sets;
