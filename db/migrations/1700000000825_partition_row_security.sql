-- Up Migration
-- Issue 16, finding 4: row-level security on every relation with a tenant_id, partitions
-- included. PostgreSQL checks a partition addressed by name against its own row-level security
-- and privileges, not its parent's: volume_metrics_10s_default had no RLS while tierwise_app could
-- read and change it, every tenant's rows. secure_tenant_relation() turns RLS on with the
-- tenant_isolation policy and, on a partition, revokes the roles' direct privileges (they reach
-- its rows through the parent, under the parent's policy). Every such relation goes through it
-- here, and maintain_rollup_partitions() (migration 200) on each partition it creates.
-- db/test: every relation with a tenant_id has RLS, read from the catalogue.

CREATE FUNCTION secure_tenant_relation(p_relation regclass) RETURNS void
  LANGUAGE plpgsql SET search_path = public
  AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', p_relation);
  IF NOT EXISTS (SELECT 1 FROM pg_policy WHERE polrelid = p_relation AND polname = 'tenant_isolation') THEN
    EXECUTE format('CREATE POLICY tenant_isolation ON %s USING (tenant_id = current_tenant_id())'
      ' WITH CHECK (tenant_id = current_tenant_id())', p_relation);
  END IF;
  IF (SELECT relispartition FROM pg_class WHERE oid = p_relation) THEN
    EXECUTE format('REVOKE ALL ON %s FROM tierwise_app, tierwise_jobs', p_relation);
  END IF;
END $$;
REVOKE EXECUTE ON FUNCTION secure_tenant_relation(regclass) FROM PUBLIC;

DO $$
DECLARE rel regclass;
BEGIN
  FOR rel IN
    SELECT c.oid::regclass FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND (c.relispartition OR NOT c.relrowsecurity)
       AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped)
  LOOP
    PERFORM secure_tenant_relation(rel);
  END LOOP;
END $$;

CREATE OR REPLACE FUNCTION maintain_rollup_partitions(p_now timestamptz DEFAULT now())
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

-- Down Migration
-- The relations keep their row-level security (turning it off again would reopen the hole).
CREATE OR REPLACE FUNCTION maintain_rollup_partitions(p_now timestamptz DEFAULT now())
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
DROP FUNCTION secure_tenant_relation(regclass);
