-- Up Migration
-- The portal's Clusters pages (issue 5's cluster working sets, shown by issue 7's portal).
--
-- 1. Which cluster a volume belongs to: the agents' pseudonymous tierwise.cluster.id (agent option
--    --cluster), as ingest last saw it on the volume's metrics or reference batches (null: no
--    cluster). The api counts a cluster's hosts and volumes and adds up their tiers from it.
ALTER TABLE volumes ADD COLUMN cluster_id text;
CREATE INDEX volumes_cluster ON volumes (tenant_id, cluster_id) WHERE cluster_id IS NOT NULL;

-- 2. A cluster's working set size over time, as volume_working_set_history (migration 730) keeps a
--    volume's: one row per cluster, window and minute of the estimate's window_end.
CREATE TABLE cluster_working_set_history (
  tenant_id       uuid NOT NULL,
  cluster_id      text NOT NULL,
  window_name     text NOT NULL,
  at              timestamptz NOT NULL,   -- window_end truncated to the minute
  wss_bytes       bigint NOT NULL,
  wss_read_bytes  bigint NOT NULL,
  wss_write_bytes bigint NOT NULL,
  PRIMARY KEY (tenant_id, cluster_id, window_name, at)
);
ALTER TABLE cluster_working_set_history ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON cluster_working_set_history
  USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());
GRANT SELECT ON cluster_working_set_history TO tierwise_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON cluster_working_set_history TO tierwise_jobs;

-- One trigger function for both histories: TG_ARGV[0] is the history table, TG_ARGV[1] the id
-- column (volume_id or cluster_id) shared by the working-set table and its history. It replaces
-- migration 730's record_working_set_history(), which named the volume tables.
CREATE FUNCTION record_working_set_minute() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  EXECUTE format(
    'INSERT INTO %1$I (tenant_id, %2$I, window_name, at, wss_bytes, wss_read_bytes, wss_write_bytes)
     SELECT ($1).tenant_id, ($1).%2$I, ($1).window_name, date_trunc(''minute'', ($1).window_end),
            ($1).wss_bytes, ($1).wss_read_bytes, ($1).wss_write_bytes
     ON CONFLICT (tenant_id, %2$I, window_name, at) DO UPDATE SET
       wss_bytes = EXCLUDED.wss_bytes, wss_read_bytes = EXCLUDED.wss_read_bytes, wss_write_bytes = EXCLUDED.wss_write_bytes',
    TG_ARGV[0], TG_ARGV[1]) USING NEW;
  RETURN NEW;
END $$;

DROP TRIGGER volume_working_sets_history ON volume_working_sets;
DROP FUNCTION record_working_set_history();
CREATE TRIGGER volume_working_sets_history
  AFTER INSERT OR UPDATE ON volume_working_sets
  FOR EACH ROW EXECUTE FUNCTION record_working_set_minute('volume_working_set_history', 'volume_id');
CREATE TRIGGER cluster_working_sets_history
  AFTER INSERT OR UPDATE ON cluster_working_sets
  FOR EACH ROW EXECUTE FUNCTION record_working_set_minute('cluster_working_set_history', 'cluster_id');

-- Down Migration
DROP TRIGGER cluster_working_sets_history ON cluster_working_sets;
DROP TRIGGER volume_working_sets_history ON volume_working_sets;
DROP FUNCTION record_working_set_minute();
CREATE FUNCTION record_working_set_history() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  INSERT INTO volume_working_set_history (tenant_id, volume_id, window_name, at, wss_bytes, wss_read_bytes, wss_write_bytes)
  VALUES (NEW.tenant_id, NEW.volume_id, NEW.window_name, date_trunc('minute', NEW.window_end),
          NEW.wss_bytes, NEW.wss_read_bytes, NEW.wss_write_bytes)
  ON CONFLICT (tenant_id, volume_id, window_name, at) DO UPDATE SET
    wss_bytes = EXCLUDED.wss_bytes, wss_read_bytes = EXCLUDED.wss_read_bytes, wss_write_bytes = EXCLUDED.wss_write_bytes;
  RETURN NEW;
END $$;
CREATE TRIGGER volume_working_sets_history
  AFTER INSERT OR UPDATE ON volume_working_sets
  FOR EACH ROW EXECUTE FUNCTION record_working_set_history();
DROP TABLE cluster_working_set_history;
DROP INDEX volumes_cluster;
ALTER TABLE volumes DROP COLUMN cluster_id;
