-- Up Migration
-- Fleet benchmarks (issue 5), read by GET /v1/benchmarks. Computed on read from
-- the outputs of both stream pipelines (the 1 d volume rollups of metric_rollups,
-- volume_working_sets, volume_io_stats' tier capacity via the rollups,
-- recommendations' media), for the calling tenant only.
--
-- A volume's cohort: (tier media, workload class). Tier media is the media of
-- the volume's current recommendation ('ram', 'nvme'; 'none' without one);
-- the workload class is 'read-heavy' (reads >= 70 % of front-end I/Os over the
-- window), 'write-heavy' (<= 30 %) or 'mixed' (the thresholds of the
-- recommender's read-mostly rule, DESIGN §4).
--
-- Not leaking a tenant's figures: a cohort is published only with at least
-- k = 5 tenants, and each latency (direction, size bin) only with
-- 5 tenants having I/O there. Every tenant weighs the same: its histogram is
-- normalised to 1 before the cohort's are added (a tenant with 1000x the I/O
-- does not become the cohort), and scalar figures (read share, working set /
-- capacity) enter as one count per tenant in fixed buckets, so the published
-- quartiles are interpolated bucket values, not any tenant's own figure. The
-- caller sees its own figures, the cohort's quantiles and its rank (the share of
-- the cohort's tenants below it), never another tenant's row or count.

-- Counts of p_values per histogram bucket (p_bounds[i-1], p_bounds[i]], the
-- last bucket open above; the input of histogram_quantile().
CREATE FUNCTION bucket_counts(p_bounds double precision[], p_values double precision[])
  RETURNS double precision[]
  LANGUAGE sql IMMUTABLE
  AS $$
  SELECT array_agg(coalesce(c.n, 0)::float8 ORDER BY g.i)
    FROM generate_series(1, array_length(p_bounds, 1) + 1) AS g(i)
    LEFT JOIN (SELECT (SELECT count(*) FROM unnest(p_bounds) AS b WHERE b < v) + 1 AS i, count(*) AS n
                 FROM unnest(p_values) AS v GROUP BY 1) AS c ON c.i = g.i $$;

-- k = 5 is fixed in the function body: a caller cannot lower it.
CREATE FUNCTION fleet_benchmarks(p_days integer DEFAULT 7)
  RETURNS TABLE (media text, workload_class text, published boolean, tenant_count integer,
                 volume_ids text[], read_share jsonb, wss_per_capacity jsonb, latency jsonb)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
  AS $$
WITH bounds AS (
  SELECT ARRAY[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]::float8[] AS read_share,
         ARRAY[0.015625, 0.03125, 0.0625, 0.125, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64]::float8[] AS wss_per_capacity),
day AS (
  SELECT r.* FROM metric_rollups r
   WHERE r.resolution = '1d' AND r.scope = 'volume'
     AND r.window_start >= date_trunc('day', now()) - make_interval(days => least(greatest(p_days, 1), 31))),
vol AS (
  SELECT d.tenant_id, d.scope_id AS volume_id, sum(d.read_ops)::float8 AS read_ops,
         sum(d.write_ops)::float8 AS write_ops, max(d.capacity_bytes)::float8 AS capacity_bytes
    FROM day d GROUP BY 1, 2 HAVING sum(d.read_ops + d.write_ops) > 0),
member AS (
  SELECT v.*, coalesce(rec.media, 'none') AS media,
         CASE WHEN v.read_ops >= 0.7 * (v.read_ops + v.write_ops) THEN 'read-heavy'
              WHEN v.read_ops <= 0.3 * (v.read_ops + v.write_ops) THEN 'write-heavy'
              ELSE 'mixed' END AS workload_class,
         ws.wss_bytes::float8 AS wss_bytes
    FROM vol v
    LEFT JOIN recommendations rec ON rec.tenant_id = v.tenant_id AND rec.volume_id = v.volume_id
    LEFT JOIN LATERAL (SELECT w.wss_bytes FROM volume_working_sets w
                        WHERE w.tenant_id = v.tenant_id AND w.volume_id = v.volume_id
                        ORDER BY w.window_name = '24h' DESC, w.updated_at DESC LIMIT 1) ws ON true),
tenant_fig AS (
  SELECT m.tenant_id, m.media, m.workload_class,
         sum(m.read_ops) / sum(m.read_ops + m.write_ops) AS read_share,
         sum(m.wss_bytes) FILTER (WHERE m.capacity_bytes > 0)
           / nullif(sum(m.capacity_bytes) FILTER (WHERE m.capacity_bytes > 0 AND m.wss_bytes IS NOT NULL), 0)
           AS wss_per_capacity
    FROM member m GROUP BY 1, 2, 3),
cohort AS (
  SELECT f.media, f.workload_class, count(*)::int AS tenants,
         bucket_counts(b.read_share, array_agg(f.read_share)) AS read_share_counts,
         bucket_counts(b.wss_per_capacity, array_agg(f.wss_per_capacity) FILTER (WHERE f.wss_per_capacity IS NOT NULL))
           AS wss_counts,
         count(f.wss_per_capacity)::int AS wss_tenants
    FROM tenant_fig f CROSS JOIN bounds b GROUP BY 1, 2, b.read_share, b.wss_per_capacity),
mine AS (
  SELECT f.*,
         (SELECT count(*) FROM tenant_fig o WHERE o.media = f.media AND o.workload_class = f.workload_class
             AND o.read_share < f.read_share)::float8 AS read_share_below,
         (SELECT count(*) FROM tenant_fig o WHERE o.media = f.media AND o.workload_class = f.workload_class
             AND o.wss_per_capacity < f.wss_per_capacity)::float8 AS wss_below
    FROM tenant_fig f WHERE f.tenant_id = current_tenant_id()),
lat_tenant AS (
  SELECT m.tenant_id, m.media, m.workload_class, dir.key AS direction, bin.key AS size_bin, e.ord AS bucket,
         sum(e.n::float8) AS n
    FROM member m
    JOIN day d ON d.tenant_id = m.tenant_id AND d.scope_id = m.volume_id
    CROSS JOIN LATERAL jsonb_each(d.latency_us) AS dir
    CROSS JOIN LATERAL jsonb_each(dir.value) AS bin
    CROSS JOIN LATERAL jsonb_array_elements_text(bin.value) WITH ORDINALITY AS e(n, ord)
   GROUP BY 1, 2, 3, 4, 5, 6),
lat_weight AS (
  SELECT t.*, t.n / nullif(sum(t.n) OVER (PARTITION BY t.tenant_id, t.media, t.workload_class, t.direction, t.size_bin), 0) AS w
    FROM lat_tenant t),
lat_cohort AS (
  SELECT x.media, x.workload_class, x.direction, x.size_bin, array_agg(x.w ORDER BY x.bucket) AS weights,
         max(x.tenants) AS tenants
    FROM (SELECT l.media, l.workload_class, l.direction, l.size_bin, l.bucket, coalesce(sum(l.w), 0) AS w,
                 count(DISTINCT l.tenant_id) FILTER (WHERE l.w IS NOT NULL) AS tenants
            FROM lat_weight l GROUP BY 1, 2, 3, 4, 5) x
   GROUP BY 1, 2, 3, 4),
lat_mine AS (
  SELECT l.media, l.workload_class, l.direction, l.size_bin, array_agg(l.n ORDER BY l.bucket) AS counts
    FROM lat_tenant l WHERE l.tenant_id = current_tenant_id() GROUP BY 1, 2, 3, 4)
SELECT c.media, c.workload_class, c.tenants >= 5,
       CASE WHEN c.tenants >= 5 THEN c.tenants END,
       (SELECT array_agg(m.volume_id ORDER BY m.volume_id) FROM member m
         WHERE m.tenant_id = current_tenant_id() AND m.media = c.media AND m.workload_class = c.workload_class),
       jsonb_build_object(
         'own', me.read_share,
         'cohort_p25', CASE WHEN c.tenants >= 5 THEN histogram_quantile(b.read_share, c.read_share_counts, 0.25) END,
         'cohort_p50', CASE WHEN c.tenants >= 5 THEN histogram_quantile(b.read_share, c.read_share_counts, 0.5) END,
         'cohort_p75', CASE WHEN c.tenants >= 5 THEN histogram_quantile(b.read_share, c.read_share_counts, 0.75) END,
         'rank', CASE WHEN c.tenants >= 5 THEN me.read_share_below / c.tenants END),
       jsonb_build_object(
         'own', me.wss_per_capacity,
         'cohort_p25', CASE WHEN c.wss_tenants >= 5 THEN histogram_quantile(b.wss_per_capacity, c.wss_counts, 0.25) END,
         'cohort_p50', CASE WHEN c.wss_tenants >= 5 THEN histogram_quantile(b.wss_per_capacity, c.wss_counts, 0.5) END,
         'cohort_p75', CASE WHEN c.wss_tenants >= 5 THEN histogram_quantile(b.wss_per_capacity, c.wss_counts, 0.75) END,
         'rank', CASE WHEN c.wss_tenants >= 5 AND me.wss_per_capacity IS NOT NULL
                      THEN me.wss_below / c.wss_tenants END),
       coalesce((
         SELECT jsonb_agg(jsonb_build_object(
                  'direction', lm.direction, 'size_bin', lm.size_bin,
                  'own_p50_us', histogram_quantile(rollup_latency_bounds_us(), lm.counts, 0.5),
                  'own_p95_us', histogram_quantile(rollup_latency_bounds_us(), lm.counts, 0.95),
                  'own_p99_us', histogram_quantile(rollup_latency_bounds_us(), lm.counts, 0.99),
                  'cohort_p50_us', CASE WHEN c.tenants >= 5 AND lc.tenants >= 5
                                        THEN histogram_quantile(rollup_latency_bounds_us(), lc.weights, 0.5) END,
                  'cohort_p95_us', CASE WHEN c.tenants >= 5 AND lc.tenants >= 5
                                        THEN histogram_quantile(rollup_latency_bounds_us(), lc.weights, 0.95) END,
                  'cohort_p99_us', CASE WHEN c.tenants >= 5 AND lc.tenants >= 5
                                        THEN histogram_quantile(rollup_latency_bounds_us(), lc.weights, 0.99) END)
                ORDER BY lm.direction, CASE WHEN lm.size_bin LIKE '>%' THEN 1e12 ELSE lm.size_bin::numeric END)
           FROM lat_mine lm
           JOIN lat_cohort lc ON lc.media = lm.media AND lc.workload_class = lm.workload_class
                             AND lc.direction = lm.direction AND lc.size_bin = lm.size_bin
          WHERE lm.media = c.media AND lm.workload_class = c.workload_class), '[]'::jsonb)
  FROM cohort c
  JOIN mine me ON me.media = c.media AND me.workload_class = c.workload_class
  CROSS JOIN bounds b
 ORDER BY c.media, c.workload_class $$;
REVOKE EXECUTE ON FUNCTION fleet_benchmarks(integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION fleet_benchmarks(integer), bucket_counts(double precision[], double precision[])
  TO tierwise_app;

-- Down Migration
DROP FUNCTION fleet_benchmarks(integer);
DROP FUNCTION bucket_counts(double precision[], double precision[]);
