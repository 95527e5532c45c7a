-- Up Migration
-- Issue 17 (docs/fleet-scale.md, "What is left" item 2): a volume's interval was two rows with the
-- same key, in volume_metrics_10s and volume_cache_health_10s, written by two operators of the jobs
-- from the same record: two upserts, two index entries and two tuples per volume and 10 s. The
-- cache health is now columns of volume_metrics_10s, written with the interval's counters
-- (stream-jobs MetricsRollupFunction), and its table is gone; the alert rules read
-- volume_metrics_10s (services/notifier signals.ts). The columns are all NULL in an interval whose
-- agent reported no cache mode (resource attribute tierwise.cache.mode), which had no health row,
-- and all set otherwise. Every health row had its interval's metrics row (the same record wrote
-- both, and both were kept 7 days: migration 890), so the copy below loses none.
ALTER TABLE volume_metrics_10s
  ADD COLUMN configured_mode text CHECK (configured_mode IN ('write-through', 'write-back')),
  ADD COLUMN effective_mode text CHECK (effective_mode IN ('write-through', 'write-back')),
  ADD COLUMN dirty_bytes bigint,
  ADD COLUMN latency_us_sum json,
  ADD COLUMN latency_ops json,
  ADD COLUMN destage_errors bigint,
  ADD COLUMN tier_errors bigint,
  ADD CONSTRAINT volume_metrics_10s_cache_health_whole
    CHECK (num_nulls(configured_mode, effective_mode, dirty_bytes, latency_us_sum, latency_ops, destage_errors, tier_errors) IN (0, 7));
UPDATE volume_metrics_10s m
   SET configured_mode = h.configured_mode, effective_mode = h.effective_mode, dirty_bytes = h.dirty_bytes,
       latency_us_sum = h.latency_us_sum, latency_ops = h.latency_ops, destage_errors = h.destage_errors,
       tier_errors = h.tier_errors
  FROM volume_cache_health_10s h
 WHERE m.tenant_id = h.tenant_id AND m.volume_id = h.volume_id AND m.interval_start = h.interval_start;
DROP TABLE volume_cache_health_10s;

-- The interval rows' retention (migration 890) now keeps one relation: its function as 890 wrote
-- it, with the list of interval tables rewritten (CREATE OR REPLACE: its privileges stay).
DO $$
DECLARE
  definition text := pg_get_functiondef('maintain_rollup_partitions(timestamptz)'::regprocedure);
  both_tables text := '(VALUES (''volume_metrics_10s''), (''volume_cache_health_10s''))';
BEGIN
  ASSERT position(both_tables IN definition) > 0, 'maintain_rollup_partitions() lists both interval tables (890)';
  EXECUTE replace(definition, both_tables, '(VALUES (''volume_metrics_10s''))');
END $$;

-- Down Migration
-- volume_cache_health_10s again, partitioned as migration 890 left it: its partitions first (the
-- retention function lists it again), then its rows, the intervals with a cache mode.
CREATE TABLE volume_cache_health_10s (
  tenant_id       uuid NOT NULL,
  volume_id       text NOT NULL,
  interval_start  timestamptz NOT NULL,
  configured_mode text NOT NULL CHECK (configured_mode IN ('write-through', 'write-back')),
  effective_mode  text NOT NULL CHECK (effective_mode IN ('write-through', 'write-back')),
  dirty_bytes     bigint NOT NULL DEFAULT 0,
  latency_us_sum  json NOT NULL DEFAULT '{}',
  latency_ops     json NOT NULL DEFAULT '{}',
  destage_errors  bigint NOT NULL DEFAULT 0,
  tier_errors     bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, volume_id, interval_start)
) PARTITION BY RANGE (interval_start);
CREATE TABLE volume_cache_health_10s_default PARTITION OF volume_cache_health_10s DEFAULT;
GRANT SELECT, INSERT, UPDATE, DELETE ON volume_cache_health_10s TO tierwise_app, tierwise_jobs;
SELECT secure_tenant_relation('volume_cache_health_10s');
SELECT secure_tenant_relation('volume_cache_health_10s_default');
DO $$
DECLARE
  definition text := pg_get_functiondef('maintain_rollup_partitions(timestamptz)'::regprocedure);
  one_table text := '(VALUES (''volume_metrics_10s''))';
BEGIN
  ASSERT position(one_table IN definition) > 0, 'maintain_rollup_partitions() lists volume_metrics_10s alone';
  EXECUTE replace(definition, one_table, '(VALUES (''volume_metrics_10s''), (''volume_cache_health_10s''))');
END $$;
SELECT maintain_rollup_partitions();
INSERT INTO volume_cache_health_10s (tenant_id, volume_id, interval_start, configured_mode, effective_mode, dirty_bytes, latency_us_sum, latency_ops, destage_errors, tier_errors)
  SELECT tenant_id, volume_id, interval_start, configured_mode, effective_mode, dirty_bytes, latency_us_sum, latency_ops, destage_errors, tier_errors
    FROM volume_metrics_10s WHERE configured_mode IS NOT NULL;
ALTER TABLE volume_metrics_10s DROP CONSTRAINT volume_metrics_10s_cache_health_whole,
  DROP COLUMN configured_mode, DROP COLUMN effective_mode, DROP COLUMN dirty_bytes, DROP COLUMN latency_us_sum,
  DROP COLUMN latency_ops, DROP COLUMN destage_errors, DROP COLUMN tier_errors;
