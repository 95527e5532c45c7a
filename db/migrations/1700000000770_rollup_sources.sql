-- Up Migration
-- Issue 7: the storage-type breakdown (VM observed, cache, peer, datastore) of IOPS, throughput
-- and latency. metric_rollups kept only the front end's (VM-observed) I/Os and latency; the
-- agent's per-source points (io.source = cache, peer, datastore; proto/METRICS.md) now roll up
-- too, at every resolution and scope, written by the Flink rollup job
-- (stream-jobs/.../metrics/SourceIo, sink/Json.sources):
--   {"cache" | "peer" | "datastore": {"read" | "write":
--      {"ops": I/Os, "bytes": bytes, "latency_us": [20 counts over rollup_latency_bounds_us()]}}}
-- only the pairs with counts. Counts only, so windows, scopes and tenants merge by addition.
-- '{}': a window written before this migration, or one without per-source points.
ALTER TABLE metric_rollups ADD COLUMN sources jsonb NOT NULL DEFAULT '{}'::jsonb;

-- Down Migration
ALTER TABLE metric_rollups DROP COLUMN sources;
