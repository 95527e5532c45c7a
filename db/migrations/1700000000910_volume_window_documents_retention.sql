-- Up Migration
-- Issue 17: since migration 905 a volume's 10 s windows are its interval rows, which are kept 7
-- days (the interval export's range, migration 890), where the other scopes' 10 s windows are kept
-- as rollup_resolutions says (2 days by default). A row's documents (latency_us, sources, workload,
-- cpu) are most of its bytes, so they now end with that retention, as a 10 s rollup row does with
-- its partition: a partition of interval rows wholly older than it is rewritten once without them,
-- its counters and cache health kept until the 7 days end, and an interval without them is no
-- window of rollup_windows. A rewrite copies the partition into a new table and swaps it in
-- (detach, drop, rename, attach): one sequential pass, where an UPDATE would leave a dead version
-- of every row behind. A rewritten partition says so in its comment; an interval that arrives in
-- it later still (an agent's spool after days of outage) keeps its documents until the partition
-- is dropped.
CREATE FUNCTION expire_volume_window_documents(p_now timestamptz DEFAULT now())
  RETURNS integer
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public
  AS $$
DECLARE
  cutoff bigint := floor(extract(epoch FROM p_now - (SELECT retention FROM rollup_resolutions WHERE resolution = '10s')))::bigint;
  kept text;
  part text;
  fresh text;
  lo bigint;
  rewritten integer := 0;
BEGIN
  SELECT string_agg(CASE WHEN attname IN ('latency_us', 'sources', 'workload', 'cpu') THEN 'NULL' ELSE quote_ident(attname) END,
                    ', ' ORDER BY attnum)
    INTO kept
    FROM pg_attribute WHERE attrelid = 'volume_metrics_10s'::regclass AND attnum > 0 AND NOT attisdropped;
  FOR part IN
    SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'volume_metrics_10s'::regclass AND c.relname ~ '^volume_metrics_10s_p[0-9]+$'
       AND obj_description(c.oid, 'pg_class') IS DISTINCT FROM 'window documents expired'
     ORDER BY 1
  LOOP
    lo := substring(part FROM '_p([0-9]+)$')::bigint;
    CONTINUE WHEN lo + 86400 > cutoff;
    fresh := part || '_rewrite';
    EXECUTE format('CREATE TABLE %I (LIKE volume_metrics_10s INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', fresh);
    EXECUTE format('INSERT INTO %I SELECT %s FROM %I', fresh, kept, part);
    EXECUTE format('ALTER TABLE volume_metrics_10s DETACH PARTITION %I', part);
    EXECUTE format('DROP TABLE %I', part);
    EXECUTE format('ALTER TABLE %I RENAME TO %I', fresh, part);
    EXECUTE format('ALTER TABLE volume_metrics_10s ATTACH PARTITION %I FOR VALUES FROM (to_timestamp(%s)) TO (to_timestamp(%s))',
      part, lo, lo + 86400);
    PERFORM secure_tenant_relation(part::regclass);
    EXECUTE format('COMMENT ON TABLE %I IS %L', part, 'window documents expired');
    rewritten := rewritten + 1;
  END LOOP;
  UPDATE volume_metrics_10s_default SET latency_us = NULL, sources = NULL, workload = NULL, cpu = NULL
   WHERE interval_start < to_timestamp(cutoff) AND latency_us IS NOT NULL;
  RETURN rewritten;
END $$;
REVOKE EXECUTE ON FUNCTION expire_volume_window_documents(timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION expire_volume_window_documents(timestamptz) TO tierwise_jobs;

-- Down Migration
DROP FUNCTION expire_volume_window_documents(timestamptz);
