-- Up Migration
-- Issue 17 (docs/fleet-scale.md "Levers taken so far"): the JSON documents the stream jobs
-- rewrite every interval or every coarse write (a rollup window's histograms, a volume's or a
-- shared tier's miss ratio curves, a volume's cache health) are stored as json, the text as
-- written, instead of jsonb. jsonb parses every number of a document into its binary form on
-- each write, and these tables are written far more often than read: a rollup row is rewritten
-- until its window closes and read by a dashboard now and then. Readers are unchanged but for the
-- functions named json_* instead of jsonb_*; json has no equality operator (compare ::text),
-- and keeps its keys in the writer's order.
ALTER TABLE metric_rollups
  ALTER COLUMN sources DROP DEFAULT, ALTER COLUMN workload DROP DEFAULT, ALTER COLUMN cpu DROP DEFAULT,
  ALTER COLUMN latency_us TYPE json, ALTER COLUMN sources TYPE json, ALTER COLUMN workload TYPE json,
  ALTER COLUMN cpu TYPE json,
  ALTER COLUMN sources SET DEFAULT '{}', ALTER COLUMN workload SET DEFAULT '{}', ALTER COLUMN cpu SET DEFAULT '{}';
ALTER TABLE volume_cache_health_10s
  ALTER COLUMN latency_us_sum DROP DEFAULT, ALTER COLUMN latency_ops DROP DEFAULT,
  ALTER COLUMN latency_us_sum TYPE json, ALTER COLUMN latency_ops TYPE json,
  ALTER COLUMN latency_us_sum SET DEFAULT '{}', ALTER COLUMN latency_ops SET DEFAULT '{}';

-- eviction_points stays a JSON object (json_typeof reads its first token). The check of its keys
-- against the api's eviction policies (migration 800) is not kept: on json it reads the whole
-- document on every write (json_object_keys), as dear as the jsonb it replaces. The jobs write only
-- EvictionPolicy's names, and readers take only the api's (services/api volume.dto mapPolicyMrc).
-- host_mrcs took cluster_mrcs' constraint with its name (migration 820, LIKE ... INCLUDING CONSTRAINTS).
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['volume_mrcs', 'cluster_mrcs', 'host_mrcs'] LOOP
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', t,
      CASE t WHEN 'volume_mrcs' THEN 'volume_mrcs_eviction_points_check' ELSE 'cluster_mrcs_eviction_points_check' END);
    EXECUTE format($f$ALTER TABLE %I ALTER COLUMN eviction_points DROP DEFAULT,
      ALTER COLUMN points TYPE json, ALTER COLUMN eviction_points TYPE json,
      ALTER COLUMN eviction_points SET DEFAULT '{}',
      ADD CONSTRAINT %I CHECK (json_typeof(eviction_points) = 'object')$f$,
      t, t || '_eviction_points_check');
  END LOOP;
END $$;

-- fleet_benchmarks (migration 840) reads latency_us with the json functions: its definition with
-- jsonb_each and jsonb_array_elements_text renamed (the only jsonb functions it applies to a column).
DO $$
DECLARE
  before text := pg_get_functiondef('fleet_benchmarks(integer)'::regprocedure);
  after text := replace(replace(before, 'jsonb_each(', 'json_each('), 'jsonb_array_elements_text(', 'json_array_elements_text(');
BEGIN
  IF after = before THEN
    RAISE EXCEPTION 'fleet_benchmarks has no jsonb_each or jsonb_array_elements_text to rename';
  END IF;
  EXECUTE after;
END $$;

-- Down Migration
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['volume_mrcs', 'cluster_mrcs', 'host_mrcs'] LOOP
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', t, t || '_eviction_points_check');
    EXECUTE format($f$ALTER TABLE %I ALTER COLUMN eviction_points DROP DEFAULT,
      ALTER COLUMN points TYPE jsonb, ALTER COLUMN eviction_points TYPE jsonb,
      ALTER COLUMN eviction_points SET DEFAULT '{}',
      ADD CONSTRAINT %I CHECK (jsonb_typeof(eviction_points) = 'object'
        AND eviction_points - ARRAY['lru', 's3-fifo', 'arc', '2q', 'sieve'] = '{}'::jsonb)$f$,
      t, CASE t WHEN 'volume_mrcs' THEN 'volume_mrcs_eviction_points_check' ELSE 'cluster_mrcs_eviction_points_check' END);
  END LOOP;
END $$;

ALTER TABLE volume_cache_health_10s
  ALTER COLUMN latency_us_sum DROP DEFAULT, ALTER COLUMN latency_ops DROP DEFAULT,
  ALTER COLUMN latency_us_sum TYPE jsonb, ALTER COLUMN latency_ops TYPE jsonb,
  ALTER COLUMN latency_us_sum SET DEFAULT '{}', ALTER COLUMN latency_ops SET DEFAULT '{}';
ALTER TABLE metric_rollups
  ALTER COLUMN sources DROP DEFAULT, ALTER COLUMN workload DROP DEFAULT, ALTER COLUMN cpu DROP DEFAULT,
  ALTER COLUMN latency_us TYPE jsonb, ALTER COLUMN sources TYPE jsonb, ALTER COLUMN workload TYPE jsonb,
  ALTER COLUMN cpu TYPE jsonb,
  ALTER COLUMN sources SET DEFAULT '{}'::jsonb, ALTER COLUMN workload SET DEFAULT '{}'::jsonb,
  ALTER COLUMN cpu SET DEFAULT '{}'::jsonb;

-- fleet_benchmarks as in migration 840.
DO $$
DECLARE
  before text := pg_get_functiondef('fleet_benchmarks(integer)'::regprocedure);
  after text := replace(replace(before, 'json_each(', 'jsonb_each('), 'json_array_elements_text(', 'jsonb_array_elements_text(');
BEGIN
  EXECUTE after;
END $$;
