-- Up Migration
-- Working set size over time (issue 7, the portal's working-set chart). volume_working_sets
-- holds only each window's latest estimate (the stream jobs upsert it in place); this trigger
-- keeps one row per volume, window and minute of the estimate's window_end (reference time),
-- the minute's last estimate winning. About 1,440 rows per volume, window and day of I/O.
CREATE TABLE volume_working_set_history (
  tenant_id       uuid NOT NULL,
  volume_id       text NOT NULL,
  window_name     text NOT NULL,
  at              timestamptz NOT NULL,   -- window_end truncated to the minute
  wss_bytes       bigint NOT NULL,
  wss_read_bytes  bigint NOT NULL,
  wss_write_bytes bigint NOT NULL,
  PRIMARY KEY (tenant_id, volume_id, window_name, at)
);
ALTER TABLE volume_working_set_history ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON volume_working_set_history
  USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());
GRANT SELECT ON volume_working_set_history TO tierwise_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON volume_working_set_history TO tierwise_jobs;

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

-- Down Migration
DROP TRIGGER volume_working_sets_history ON volume_working_sets;
DROP FUNCTION record_working_set_history();
DROP TABLE volume_working_set_history;
