-- Up Migration
-- Issue 18: storage-bound CPU (docs/workload.md). The host's CPU time per mode and the volume's
-- consumer's (proto/METRICS.md system.cpu.time, tierwise.consumer.cpu.time) roll up beside the I/O
-- at every resolution and scope, written by the Flink rollup job (stream-jobs/.../metrics/CpuTimes,
-- json/Json.cpu), in microseconds with the wall-clock microseconds of the intervals that carried them:
--   {"host_us": {"user" | "nice" | "system" | "idle" | "iowait" | "interrupt" | "steal": µs},
--    "host_wall_us": µs,
--    "consumer": {"process" | "cgroup": {"user_us": µs, "system_us": µs, "wall_us": µs}}}
-- Every field adds, so windows, scopes and tenants merge by addition; utilization is the busy modes
-- over all modes, a consumer's cores its CPU over its wall time.
-- '{}': a window written before this migration, or one whose agent measured no CPU (a replay).
ALTER TABLE metric_rollups ADD COLUMN cpu jsonb NOT NULL DEFAULT '{}'::jsonb;

-- Down Migration
ALTER TABLE metric_rollups DROP COLUMN cpu;
