-- Up Migration
-- Issue 17: a volume's 10-second interval rows (volume_metrics_10s, volume_cache_health_10s) were
-- kept for good: one row per volume and 10 s in each, a table and an index that grew with the fleet
-- and its age, and alert rules (services/notifier signals.ts) that read a window of minutes read
-- through all of it. They are now kept 7 days, the longest range one export of a volume's
-- intervals covers (GET /v1/volumes/{id}/metrics/export), in partitions of 1 day by range of
-- interval_start, enforced by maintain_rollup_partitions() as the rollups' retention is: those
-- wholly older than the retention are dropped.
--
-- volume_cache_health_10s becomes partitioned (volume_metrics_10s already is, with only its
-- default partition): its rows move to the new table, which gets the old one's row-level security
-- and privileges (secure_tenant_relation(), migration 825, on the parent and its partitions), once
-- its partitions exist.
ALTER TABLE volume_cache_health_10s RENAME TO volume_cache_health_10s_unpartitioned;
ALTER INDEX volume_cache_health_10s_pkey RENAME TO volume_cache_health_10s_unpartitioned_pkey;
CREATE TABLE volume_cache_health_10s (
  LIKE volume_cache_health_10s_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS,
  PRIMARY KEY (tenant_id, volume_id, interval_start)
) PARTITION BY RANGE (interval_start);
CREATE TABLE volume_cache_health_10s_default PARTITION OF volume_cache_health_10s DEFAULT;
GRANT SELECT, INSERT, UPDATE, DELETE ON volume_cache_health_10s TO tierwise_app, tierwise_jobs;
SELECT secure_tenant_relation('volume_cache_health_10s');
SELECT secure_tenant_relation('volume_cache_health_10s_default');

-- One row per partitioned relation and run: the relation, the resolution of its rows, and what the
-- run did. Partitions are named <relation>_p<lower bound, Unix seconds>.
DROP FUNCTION maintain_rollup_partitions(timestamptz);
CREATE FUNCTION maintain_rollup_partitions(p_now timestamptz DEFAULT now())
  RETURNS TABLE (relation text, resolution text, created integer, dropped integer, expired_rows bigint)
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public
  AS $$
DECLARE
  r record;
  part text;
  lo bigint;
  last_lo bigint;
  cutoff bigint;
BEGIN
  FOR r IN
    SELECT 'metric_rollups_' || q.resolution AS parent, 'window_start' AS time_column, q.resolution,
           q.retention, q.partition_seconds
      FROM rollup_resolutions q
    UNION ALL
    SELECT t.parent, 'interval_start', '10s', interval '7 days', 86400
      FROM (VALUES ('volume_metrics_10s'), ('volume_cache_health_10s')) AS t (parent)
     ORDER BY parent
  LOOP
    cutoff := floor(extract(epoch FROM p_now - r.retention))::bigint;
    relation := r.parent;
    resolution := r.resolution;
    created := 0;
    dropped := 0;
    FOR part IN
      SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = r.parent::regclass AND c.relname ~ ('^' || r.parent || '_p[0-9]+$')
    LOOP
      IF substring(part FROM '_p([0-9]+)$')::bigint + r.partition_seconds <= cutoff THEN
        EXECUTE format('DROP TABLE %I', part);
        dropped := dropped + 1;
      END IF;
    END LOOP;
    EXECUTE format('DELETE FROM %I WHERE %I < to_timestamp(%s)', r.parent || '_default', r.time_column, cutoff);
    GET DIAGNOSTICS expired_rows = ROW_COUNT;
    lo := (cutoff / r.partition_seconds) * r.partition_seconds;
    last_lo := (floor(extract(epoch FROM p_now))::bigint / r.partition_seconds + 1) * r.partition_seconds;
    WHILE lo <= last_lo LOOP
      part := r.parent || '_p' || lo;
      IF to_regclass(part) IS NULL THEN
        EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part, r.parent);
        EXECUTE format('WITH moved AS (DELETE FROM %I WHERE %I >= to_timestamp(%s) AND %I < to_timestamp(%s) RETURNING *) INSERT INTO %I SELECT * FROM moved',
          r.parent || '_default', r.time_column, lo, r.time_column, lo + r.partition_seconds, part);
        EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (to_timestamp(%s)) TO (to_timestamp(%s))',
          r.parent, part, lo, lo + r.partition_seconds);
        PERFORM secure_tenant_relation(part::regclass);
        created := created + 1;
      END IF;
      lo := lo + r.partition_seconds;
    END LOOP;
    RETURN NEXT;
  END LOOP;
END $$;
REVOKE EXECUTE ON FUNCTION maintain_rollup_partitions(timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION maintain_rollup_partitions(timestamptz) TO tierwise_jobs;
-- The partitions first, so that the old rows go straight to theirs; then the rows older than the
-- retention, which the copy left in the default partition, are deleted.
SELECT maintain_rollup_partitions();
INSERT INTO volume_cache_health_10s SELECT * FROM volume_cache_health_10s_unpartitioned;
DROP TABLE volume_cache_health_10s_unpartitioned;
SELECT maintain_rollup_partitions();

-- Down Migration
-- volume_metrics_10s keeps its partitions (it was partitioned before), no longer created or
-- dropped; volume_cache_health_10s is one table again.
ALTER TABLE volume_cache_health_10s RENAME TO volume_cache_health_10s_partitioned;
ALTER INDEX volume_cache_health_10s_pkey RENAME TO volume_cache_health_10s_partitioned_pkey;
CREATE TABLE volume_cache_health_10s (
  LIKE volume_cache_health_10s_partitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS,
  PRIMARY KEY (tenant_id, volume_id, interval_start)
);
INSERT INTO volume_cache_health_10s SELECT * FROM volume_cache_health_10s_partitioned;
DROP TABLE volume_cache_health_10s_partitioned;
GRANT SELECT, INSERT, UPDATE, DELETE ON volume_cache_health_10s TO tierwise_app, tierwise_jobs;
SELECT secure_tenant_relation('volume_cache_health_10s');
DROP FUNCTION maintain_rollup_partitions(timestamptz);
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
        PERFORM secure_tenant_relation(part::regclass);
        created := created + 1;
      END IF;
      lo := lo + r.partition_seconds;
    END LOOP;
    RETURN NEXT;
  END LOOP;
END $$;
REVOKE EXECUTE ON FUNCTION maintain_rollup_partitions(timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION maintain_rollup_partitions(timestamptz) TO tierwise_jobs;
