-- Up Migration
-- Cache device errors (docs/notifications.md "Alert rules"). The metrics job writes each volume
-- interval's delta counts of tierwise.cache.destage.errors (destage writes and datastore flushes
-- the datastore failed; write-back keeps the blocks dirty and retries) and
-- tierwise.cache.tier.errors (tier device requests that failed; the first disables the tier) into
-- volume_cache_health_10s (proto/METRICS.md; 0 in rows written before). Alert rules of kind
-- device_errors fire while a volume's errors over window_seconds are above threshold (errors per
-- window; 0: any error). alert_incidents.details: the breakdown of an incident's value that its
-- events carry, {"destage_errors": n, "tier_errors": n} for device_errors, NULL for other kinds.
-- Row-level security of the three tables is unchanged (migration 500).
ALTER TABLE volume_cache_health_10s
  ADD COLUMN destage_errors bigint NOT NULL DEFAULT 0,
  ADD COLUMN tier_errors bigint NOT NULL DEFAULT 0;
ALTER TABLE alert_rules
  DROP CONSTRAINT alert_rules_kind_check,
  ADD CONSTRAINT alert_rules_kind_check
    CHECK (kind IN ('hit_ratio_drop', 'agent_silent', 'latency', 'destage_backlog', 'write_back_fallback', 'device_errors'));
ALTER TABLE alert_incidents ADD COLUMN details jsonb;

-- Down Migration
DELETE FROM alert_rules WHERE kind = 'device_errors';
ALTER TABLE alert_incidents DROP COLUMN details;
ALTER TABLE alert_rules
  DROP CONSTRAINT alert_rules_kind_check,
  ADD CONSTRAINT alert_rules_kind_check
    CHECK (kind IN ('hit_ratio_drop', 'agent_silent', 'latency', 'destage_backlog', 'write_back_fallback'));
ALTER TABLE volume_cache_health_10s DROP COLUMN destage_errors, DROP COLUMN tier_errors;
