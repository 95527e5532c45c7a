-- Up Migration
-- Issue 18: the vscsiStats workload histograms (proto/METRICS.md: seek distance between successive
-- commands and from the closest of the previous 16, outstanding I/Os at issue, interarrival time)
-- roll up at every resolution and scope beside the latency histograms, written by the Flink
-- rollup job (stream-jobs/.../metrics/WorkloadHistograms, json/Json.workload):
--   {"seek_distance" | "seek_distance_closest" | "outstanding" | "interarrival_us":
--      {"all" | "read" | "write": [bucket counts over the family's vscsiStats bounds]}}
-- only the histograms with counts. Counts only, so windows, scopes and tenants merge by addition.
-- '{}': a window written before this migration, or one whose agent sent no such histograms.
ALTER TABLE metric_rollups ADD COLUMN workload jsonb NOT NULL DEFAULT '{}'::jsonb;

-- Down Migration
ALTER TABLE metric_rollups DROP COLUMN workload;
