-- Up Migration
-- Rollups (issue 5): every metric of volume_metrics_10s plus the front-end latency
-- histograms, per volume, host, cluster and tenant, at 10 s, 1 min, 1 h and 1 d,
-- written by the Flink rollup job (stream-jobs/.../metrics/RollupFunction) as
-- complete window values (idempotent upserts), and the fleet benchmarks read
-- by GET /v1/benchmarks.
--
-- Latency is kept as histogram bucket counts, never as averages, so windows,
-- scopes and cohorts merge by adding counts: latency_us is
--   {"read": {"<ioLength bin>": [20 counts]}, "write": {...}}
-- over the bucket bounds of rollup_latency_bounds_us() (proto/METRICS.md;
-- bucket i counts latencies in (bound[i-1], bound[i]], the last one > 1 s).

-- Resolutions, their retention and partition width. Retention is enforced by
-- maintain_rollup_partitions(): partitions wholly older than now - retention
-- are dropped (rows in the default partition deleted).
CREATE TABLE rollup_resolutions (
  resolution        text PRIMARY KEY,
  window_seconds    integer NOT NULL,
  retention         interval NOT NULL,
  partition_seconds integer NOT NULL
);
INSERT INTO rollup_resolutions VALUES
  ('10s', 10,    interval '2 days',    86400),
  ('1m',  60,    interval '14 days',   86400),
  ('1h',  3600,  interval '180 days',  7 * 86400),
  ('1d',  86400, interval '1095 days', 30 * 86400);

CREATE TABLE metric_rollups (
  tenant_id      uuid NOT NULL,
  scope          text NOT NULL CHECK (scope IN ('volume', 'host', 'cluster', 'tenant')),
  scope_id       text NOT NULL,
  resolution     text NOT NULL,
  window_start   timestamptz NOT NULL,
  volumes        integer NOT NULL,       -- volumes that reported in the window
  read_ops       bigint NOT NULL,
  write_ops      bigint NOT NULL,
  read_bytes     bigint NOT NULL,
  write_bytes    bigint NOT NULL,
  cache_hits     bigint NOT NULL,        -- 4 KiB blocks, all directions
  cache_misses   bigint NOT NULL,
  read_cache_hits   bigint NOT NULL,
  read_cache_misses bigint NOT NULL,
  evicted_bytes  bigint NOT NULL,
  occupancy_bytes bigint NOT NULL,       -- sum over volumes of each one's latest gauge in the window
  capacity_bytes bigint NOT NULL,        -- idem
  latency_us     jsonb NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, scope, scope_id, resolution, window_start)
) PARTITION BY LIST (resolution);

DO $$
DECLARE r text;
BEGIN
  FOREACH r IN ARRAY ARRAY['10s', '1m', '1h', '1d'] LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF metric_rollups FOR VALUES IN (%L) PARTITION BY RANGE (window_start)',
      'metric_rollups_' || r, r);
    EXECUTE format('CREATE TABLE %I PARTITION OF %I DEFAULT', 'metric_rollups_' || r || '_default', 'metric_rollups_' || r);
  END LOOP;
END $$;

ALTER TABLE metric_rollups ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON metric_rollups
  USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());
GRANT SELECT ON rollup_resolutions TO tierwise_app, tierwise_jobs;
GRANT SELECT, INSERT, UPDATE, DELETE ON metric_rollups TO tierwise_app, tierwise_jobs;

-- The latency bucket bounds, microseconds (proto/METRICS.md, log-linear 1-2-5).
CREATE FUNCTION rollup_latency_bounds_us() RETURNS double precision[]
  LANGUAGE sql IMMUTABLE
  AS $$ SELECT ARRAY[1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000,
                     100000, 200000, 500000, 1000000]::double precision[] $$;

-- The q-quantile (0..1) of a histogram: counts[i] is the weight of the bucket
-- (bounds[i-1], bounds[i]] (the first starts at 0, the last is open above the
-- final bound). Linear interpolation inside the bucket, as Prometheus'
-- histogram_quantile; the open bucket answers the final bound. NULL when the
-- histogram is empty. Weights may be fractional (mixtures of histograms).
CREATE FUNCTION histogram_quantile(p_bounds double precision[], p_counts double precision[], p_q double precision)
  RETURNS double precision
  LANGUAGE plpgsql IMMUTABLE STRICT
  AS $$
DECLARE
  total double precision;
  target double precision;
  cum double precision := 0;
  lo double precision;
  n integer := array_length(p_bounds, 1);
BEGIN
  SELECT coalesce(sum(c), 0) INTO total FROM unnest(p_counts) AS c;
  IF total <= 0 THEN
    RETURN NULL;
  END IF;
  target := p_q * total;
  FOR i IN 1 .. array_length(p_counts, 1) LOOP
    IF p_counts[i] > 0 AND cum + p_counts[i] >= target THEN
      IF i > n THEN
        RETURN p_bounds[n];
      END IF;
      lo := CASE WHEN i = 1 THEN 0 ELSE p_bounds[i - 1] END;
      RETURN lo + (p_bounds[i] - lo) * greatest(target - cum, 0) / p_counts[i];
    END IF;
    cum := cum + p_counts[i];
  END LOOP;
  RETURN p_bounds[n];
END $$;
GRANT EXECUTE ON FUNCTION rollup_latency_bounds_us(), histogram_quantile(double precision[], double precision[], double precision)
  TO tierwise_app, tierwise_jobs;

-- Creates the range partitions of every resolution from now - retention to one
-- partition ahead of p_now (rows already in the default partition for that
-- range move in), drops the partitions wholly older than now - retention and
-- deletes such rows from the default partition. Partitions are named
-- metric_rollups_<resolution>_p<lower bound, Unix seconds>. Run by the stream
-- jobs every hour (RollupRetention) and once here.
CREATE FUNCTION maintain_rollup_partitions(p_now timestamptz DEFAULT now())
  RETURNS TABLE (resolution text, created integer, dropped integer, expired_rows bigint)
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public
  AS $$
DECLARE
  r record;
  parent text;
  part text;
  lo bigint;
  last_lo bigint;
  cutoff bigint;
BEGIN
  FOR r IN SELECT * FROM rollup_resolutions ORDER BY window_seconds LOOP
    parent := 'metric_rollups_' || r.resolution;
    cutoff := floor(extract(epoch FROM p_now - r.retention))::bigint;
    resolution := r.resolution;
    created := 0;
    dropped := 0;
    FOR part IN
      SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = parent::regclass AND c.relname ~ ('^' || parent || '_p[0-9]+$')
    LOOP
      IF substring(part FROM '_p([0-9]+)$')::bigint + r.partition_seconds <= cutoff THEN
        EXECUTE format('DROP TABLE %I', part);
        dropped := dropped + 1;
      END IF;
    END LOOP;
    EXECUTE format('DELETE FROM %I WHERE window_start < to_timestamp(%s)', parent || '_default', cutoff);
    GET DIAGNOSTICS expired_rows = ROW_COUNT;
    lo := (cutoff / r.partition_seconds) * r.partition_seconds;
    last_lo := (floor(extract(epoch FROM p_now))::bigint / r.partition_seconds + 1) * r.partition_seconds;
    WHILE lo <= last_lo LOOP
      part := parent || '_p' || lo;
      IF to_regclass(part) IS NULL THEN
        EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part, parent);
        EXECUTE format('WITH moved AS (DELETE FROM %I WHERE window_start >= to_timestamp(%s) AND window_start < to_timestamp(%s) RETURNING *) INSERT INTO %I SELECT * FROM moved',
          parent || '_default', lo, lo + r.partition_seconds, part);
        EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (to_timestamp(%s)) TO (to_timestamp(%s))',
          parent, part, lo, lo + r.partition_seconds);
        created := created + 1;
      END IF;
      lo := lo + r.partition_seconds;
    END LOOP;
    RETURN NEXT;
  END LOOP;
END $$;
REVOKE EXECUTE ON FUNCTION maintain_rollup_partitions(timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION maintain_rollup_partitions(timestamptz) TO tierwise_jobs;
SELECT maintain_rollup_partitions();

-- Down Migration
DROP FUNCTION maintain_rollup_partitions(timestamptz);
DROP FUNCTION histogram_quantile(double precision[], double precision[], double precision);
DROP FUNCTION rollup_latency_bounds_us();
DROP TABLE metric_rollups;
DROP TABLE rollup_resolutions;
