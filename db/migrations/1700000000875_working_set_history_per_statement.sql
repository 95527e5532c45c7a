-- Up Migration
-- Issue 17 (docs/fleet-scale.md "What is left"): the jobs upsert working sets in multi-row
-- statements, and the row-level trigger of migration 780 that keeps each estimate's minute in the
-- history planned its dynamic INSERT once per row, costing more than the row. It now runs once per
-- statement over the statement's transition table; what it writes is unchanged: each estimate goes
-- to its minute's history row, the newer replacing the older (a statement holds a working set's key
-- once, so no history row is written twice by one statement). INSERT and UPDATE fire separate
-- triggers (a trigger with a transition table has one event); an INSERT ... ON CONFLICT fires both,
-- each over the rows it inserted or updated, often one of them over none: that one returns before
-- planning its dynamic INSERT.
DROP TRIGGER volume_working_sets_history ON volume_working_sets;
DROP TRIGGER cluster_working_sets_history ON cluster_working_sets;
CREATE OR REPLACE FUNCTION record_working_set_minute() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM new_rows) THEN
    RETURN NULL;
  END IF;
  EXECUTE format(
    'INSERT INTO %1$I (tenant_id, %2$I, window_name, at, wss_bytes, wss_read_bytes, wss_write_bytes)
     SELECT tenant_id, %2$I, window_name, date_trunc(''minute'', window_end), wss_bytes, wss_read_bytes, wss_write_bytes
       FROM new_rows
     ON CONFLICT (tenant_id, %2$I, window_name, at) DO UPDATE SET
       wss_bytes = EXCLUDED.wss_bytes, wss_read_bytes = EXCLUDED.wss_read_bytes, wss_write_bytes = EXCLUDED.wss_write_bytes',
    TG_ARGV[0], TG_ARGV[1]);
  RETURN NULL;
END $$;
CREATE TRIGGER volume_working_sets_history AFTER INSERT ON volume_working_sets
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION record_working_set_minute('volume_working_set_history', 'volume_id');
CREATE TRIGGER volume_working_sets_history_update AFTER UPDATE ON volume_working_sets
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION record_working_set_minute('volume_working_set_history', 'volume_id');
CREATE TRIGGER cluster_working_sets_history AFTER INSERT ON cluster_working_sets
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION record_working_set_minute('cluster_working_set_history', 'cluster_id');
CREATE TRIGGER cluster_working_sets_history_update AFTER UPDATE ON cluster_working_sets
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION record_working_set_minute('cluster_working_set_history', 'cluster_id');

-- Down Migration
DROP TRIGGER cluster_working_sets_history_update ON cluster_working_sets;
DROP TRIGGER cluster_working_sets_history ON cluster_working_sets;
DROP TRIGGER volume_working_sets_history_update ON volume_working_sets;
DROP TRIGGER volume_working_sets_history ON volume_working_sets;
CREATE OR REPLACE FUNCTION record_working_set_minute() RETURNS trigger
  LANGUAGE plpgsql AS $$
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
CREATE TRIGGER volume_working_sets_history
  AFTER INSERT OR UPDATE ON volume_working_sets
  FOR EACH ROW EXECUTE FUNCTION record_working_set_minute('volume_working_set_history', 'volume_id');
CREATE TRIGGER cluster_working_sets_history
  AFTER INSERT OR UPDATE ON cluster_working_sets
  FOR EACH ROW EXECUTE FUNCTION record_working_set_minute('cluster_working_set_history', 'cluster_id');
