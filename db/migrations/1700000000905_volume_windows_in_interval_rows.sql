-- Up Migration
-- Issue 17 (docs/fleet-scale.md, "What is left" item 2): every volume interval inserted two rows
-- with the same counters, its volume_metrics_10s row and its volume's 10 s metric_rollups row
-- (whose documents, latency_us, sources, workload and cpu, only it had): two upserts, two index
-- entries and two tuples per volume and 10 s. A volume's 10 s window is now its interval row: the
-- documents are columns of volume_metrics_10s, written with the interval's counters and cache
-- health (stream-jobs MetricsRollupFunction), and the jobs write no 10 s metric_rollups row of a
-- volume's scope. Readers of windows read the view rollup_windows: the metric_rollups rows and,
-- as the volume scope's 10 s windows, the interval rows with documents (window_start = the
-- interval's start; an interval belongs to the 10 s window of its start as before, docs/rollups.md).
--
-- The documents are NULL in an interval written before this migration whose window is not moved
-- below; such an interval is not a window of the view (its window stays in metric_rollups). A 10 s
-- window that held exactly one interval of its volume (every window of an agent whose intervals
-- are 10 s or longer) is moved into that interval's row; one that held two (an agent restarted
-- within 10 s) stays a metric_rollups row until its retention ends, so no interval is counted twice.
ALTER TABLE volume_metrics_10s
  ADD COLUMN latency_us json,
  ADD COLUMN sources json,
  ADD COLUMN workload json,
  ADD COLUMN cpu json,
  ADD CONSTRAINT volume_metrics_10s_documents_whole CHECK (num_nulls(latency_us, sources, workload, cpu) IN (0, 4));

WITH single AS (
  SELECT r.tenant_id, r.scope_id, r.window_start, min(m.interval_start) AS interval_start
    FROM metric_rollups r
    JOIN volume_metrics_10s m
      ON m.tenant_id = r.tenant_id AND m.volume_id = r.scope_id
     AND m.interval_start >= r.window_start AND m.interval_start < r.window_start + interval '10 seconds'
   WHERE r.scope = 'volume' AND r.resolution = '10s'
   GROUP BY r.tenant_id, r.scope_id, r.window_start
  HAVING count(*) = 1
), moved AS (
  UPDATE volume_metrics_10s m
     SET latency_us = r.latency_us, sources = r.sources, workload = r.workload, cpu = r.cpu
    FROM single s
    JOIN metric_rollups r
      ON r.tenant_id = s.tenant_id AND r.scope = 'volume' AND r.scope_id = s.scope_id
     AND r.resolution = '10s' AND r.window_start = s.window_start
   WHERE m.tenant_id = s.tenant_id AND m.volume_id = s.scope_id AND m.interval_start = s.interval_start
  RETURNING s.tenant_id, s.scope_id, s.window_start
)
DELETE FROM metric_rollups r
 USING moved
 WHERE r.tenant_id = moved.tenant_id AND r.scope = 'volume' AND r.scope_id = moved.scope_id
   AND r.resolution = '10s' AND r.window_start = moved.window_start;

-- security_invoker: the view reads its tables as the querying role, so their row-level security
-- applies (a view otherwise reads as its owner). A volume's 10 s rollup row whose window has an
-- interval row with documents is not read: jobs restored from a checkpoint taken before this
-- migration replay the intervals after it, whose rollup rows the jobs before had written, and
-- write them as interval rows with documents (those documents hold the replayed records only).
CREATE VIEW rollup_windows WITH (security_invoker = true) AS
  SELECT tenant_id, scope, scope_id, resolution, window_start, volumes, read_ops, write_ops,
         read_bytes, write_bytes, cache_hits, cache_misses, read_cache_hits, read_cache_misses,
         evicted_bytes, occupancy_bytes, capacity_bytes, latency_us, sources, workload, cpu
    FROM metric_rollups r
   WHERE NOT (r.scope = 'volume' AND r.resolution = '10s' AND EXISTS (
           SELECT 1 FROM volume_metrics_10s m
            WHERE m.tenant_id = r.tenant_id AND m.volume_id = r.scope_id AND m.latency_us IS NOT NULL
              AND m.interval_start >= r.window_start AND m.interval_start < r.window_start + interval '10 seconds'))
  UNION ALL
  SELECT tenant_id, 'volume', volume_id, '10s', interval_start, 1, read_ops, write_ops,
         read_bytes, write_bytes, cache_hits, cache_misses, read_cache_hits, read_cache_misses,
         evicted_bytes, occupancy_bytes, capacity_bytes, latency_us, sources, workload, cpu
    FROM volume_metrics_10s
   WHERE latency_us IS NOT NULL;
GRANT SELECT ON rollup_windows TO tierwise_app, tierwise_jobs;

-- Down Migration
-- Each interval's documents back into a 10 s metric_rollups row of its volume's scope (the window
-- of its start; the counters are the interval's, the gauges its own). Of two intervals of one
-- window (an agent restarted within 10 s) the first is kept: documents are not added up in SQL.
DROP VIEW rollup_windows;
INSERT INTO metric_rollups (tenant_id, scope, scope_id, resolution, window_start, volumes, read_ops,
    write_ops, read_bytes, write_bytes, cache_hits, cache_misses, read_cache_hits, read_cache_misses,
    evicted_bytes, occupancy_bytes, capacity_bytes, latency_us, sources, workload, cpu)
  SELECT tenant_id, 'volume', volume_id, '10s', to_timestamp(floor(extract(epoch FROM interval_start) / 10) * 10), 1,
         read_ops, write_ops, read_bytes, write_bytes, cache_hits, cache_misses, read_cache_hits,
         read_cache_misses, evicted_bytes, occupancy_bytes, capacity_bytes, latency_us, sources, workload, cpu
    FROM volume_metrics_10s
   WHERE latency_us IS NOT NULL
  ON CONFLICT DO NOTHING;
ALTER TABLE volume_metrics_10s
  DROP CONSTRAINT volume_metrics_10s_documents_whole,
  DROP COLUMN latency_us,
  DROP COLUMN sources,
  DROP COLUMN workload,
  DROP COLUMN cpu;
