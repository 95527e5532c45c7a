/**
 * One SELECT per alert rule kind, each giving the rules' current breaches as rows
 * `(tenant_id, rule_id, subject, value, details)`: a subject (volume or host id) whose condition
 * holds now, with the value compared to the rule's threshold in the rule's unit and its breakdown
 * (a jsonb object, or NULL; kept in alert_incidents.details for the events). Each joins the
 * metrics on the rule's tenant_id (the notifier bypasses row-level security) and reads only
 * enabled rules. Time windows end at now(); window_seconds is the rule's.
 */

/** Recent window of rule `r`, as an interval. */
const WINDOW = 'make_interval(secs => r.window_seconds)';

/**
 * The volume_metrics_10s rows `h` of rule r's volumes (all, or its one) within its window that
 * carry a cache health (its columns are NULL where the agent reported no cache mode).
 */
const HEALTH_IN_WINDOW = `
        FROM volume_metrics_10s h
       WHERE h.tenant_id = r.tenant_id AND (r.volume_id IS NULL OR h.volume_id = r.volume_id)
         AND h.interval_start >= now() - ${WINDOW} AND h.configured_mode IS NOT NULL`;

/** Length of the baseline a hit ratio drop compares against: the hour before the window. */
export const HIT_RATIO_BASELINE_SECONDS = 3600;

/**
 * hit_ratio_drop: hit ratio (hits / (hits + misses), 4 KiB blocks, volume_metrics_10s) of the
 * last window_seconds is more than `threshold` (a ratio: 0.2 = 20 points) below the hit ratio
 * of the hour before. Needs I/O in both periods.
 */
const HIT_RATIO_DROP = `
  SELECT r.tenant_id, r.id AS rule_id, m.volume_id AS subject, m.baseline - m.recent AS value, NULL::jsonb AS details
    FROM alert_rules r
    CROSS JOIN LATERAL (
      SELECT v.volume_id,
             sum(v.cache_hits) FILTER (WHERE v.interval_start >= now() - ${WINDOW})::float8
               / nullif(sum(v.cache_hits + v.cache_misses) FILTER (WHERE v.interval_start >= now() - ${WINDOW}), 0) AS recent,
             sum(v.cache_hits) FILTER (WHERE v.interval_start < now() - ${WINDOW})::float8
               / nullif(sum(v.cache_hits + v.cache_misses) FILTER (WHERE v.interval_start < now() - ${WINDOW}), 0) AS baseline
        FROM volume_metrics_10s v
       WHERE v.tenant_id = r.tenant_id AND (r.volume_id IS NULL OR v.volume_id = r.volume_id)
         AND v.interval_start >= now() - ${WINDOW} - make_interval(secs => ${HIT_RATIO_BASELINE_SECONDS})
       GROUP BY v.volume_id) m
   WHERE r.enabled AND r.kind = 'hit_ratio_drop' AND m.baseline - m.recent > r.threshold`;

/** agent_silent: a host (hosts.last_seen, stamped by ingest) has sent nothing for more than `threshold` seconds. */
const AGENT_SILENT = `
  SELECT r.tenant_id, r.id AS rule_id, h.host_id AS subject, extract(epoch FROM now() - h.last_seen)::float8 AS value, NULL::jsonb AS details
    FROM alert_rules r
    JOIN hosts h ON h.tenant_id = r.tenant_id
   WHERE r.enabled AND r.kind = 'agent_silent' AND h.last_seen < now() - make_interval(secs => r.threshold)`;

/**
 * latency: mean latency (µs) of the ioLength bin bin_upper_bytes over window_seconds
 * (volume_metrics_10s: latency_us_sum / latency_ops of that bin) is above `threshold` µs.
 */
const LATENCY = `
  SELECT r.tenant_id, r.id AS rule_id, l.volume_id AS subject, l.mean_us AS value, NULL::jsonb AS details
    FROM alert_rules r
    CROSS JOIN LATERAL (
      SELECT h.volume_id,
             sum((h.latency_us_sum ->> r.bin_upper_bytes::text)::float8)
               / nullif(sum((h.latency_ops ->> r.bin_upper_bytes::text)::float8), 0) AS mean_us ${HEALTH_IN_WINDOW}
       GROUP BY h.volume_id) l
   WHERE r.enabled AND r.kind = 'latency' AND l.mean_us > r.threshold`;

/** The newest row with a cache health of each volume of rule r within its window. */
const LATEST_HEALTH = `
    CROSS JOIN LATERAL (
      SELECT DISTINCT ON (h.volume_id) h.volume_id, h.dirty_bytes, h.configured_mode, h.effective_mode ${HEALTH_IN_WINDOW}
       ORDER BY h.volume_id, h.interval_start DESC) h`;

/** destage_backlog: dirty bytes waiting for destage at the newest interval are above `threshold` bytes. */
const DESTAGE_BACKLOG = `
  SELECT r.tenant_id, r.id AS rule_id, h.volume_id AS subject, h.dirty_bytes::float8 AS value, NULL::jsonb AS details
    FROM alert_rules r ${LATEST_HEALTH}
   WHERE r.enabled AND r.kind = 'destage_backlog' AND h.dirty_bytes > r.threshold`;

/** write_back_fallback: at the newest interval a volume configured write-back runs write-through. */
const WRITE_BACK_FALLBACK = `
  SELECT r.tenant_id, r.id AS rule_id, h.volume_id AS subject, 1::float8 AS value, NULL::jsonb AS details
    FROM alert_rules r ${LATEST_HEALTH}
   WHERE r.enabled AND r.kind = 'write_back_fallback' AND h.configured_mode = 'write-back' AND h.effective_mode = 'write-through'`;

/**
 * device_errors: destage errors (destage writes or flushes the datastore failed) plus tier errors
 * (failed tier device requests) of a volume's intervals within the window are above `threshold`
 * errors (0: any error). details: the two counts and the window they were counted over.
 */
const DEVICE_ERRORS = `
  SELECT r.tenant_id, r.id AS rule_id, e.volume_id AS subject, (e.destage_errors + e.tier_errors)::float8 AS value,
         jsonb_build_object('destage_errors', e.destage_errors, 'tier_errors', e.tier_errors, 'window_seconds', r.window_seconds) AS details
    FROM alert_rules r
    CROSS JOIN LATERAL (
      SELECT h.volume_id, sum(h.destage_errors) AS destage_errors, sum(h.tier_errors) AS tier_errors ${HEALTH_IN_WINDOW}
       GROUP BY h.volume_id) e
   WHERE r.enabled AND r.kind = 'device_errors' AND e.destage_errors + e.tier_errors > r.threshold`;

/** Every rule's current breaches, one SELECT. */
export const BREACHES_SQL = [HIT_RATIO_DROP, AGENT_SILENT, LATENCY, DESTAGE_BACKLOG, WRITE_BACK_FALLBACK, DEVICE_ERRORS].join('\n  UNION ALL\n');
