-- Up Migration
-- Issue 16, finding 5: sign-up is self-service, so four tenants made by one actor and one victim
-- formed a published cohort of 5, and the attacker's exact ranks bounded the victim's read share
-- to [0.50, 0.643). fleet_benchmarks() (migration 201) now
--   - counts a tenant in a cohort only when it costs something to make: a verified owner (its
--     actor: the owner's e-mail domain, benchmark_actor()) and at least 7 days with 1 000
--     front-end I/Os or more on the cohort's volumes in the window;
--   - merges the counted tenants of one actor into one participant (their volumes' I/O summed),
--     and publishes a cohort only with k = 5 participants, i.e. 5 distinct actors;
--   - adds Laplace noise to every published histogram (differential privacy, epsilon = 1 per
--     figure per daily release, benchmark_noisy_counts()) before its quantiles are read, and
--     publishes the participant count with noise too;
--   - returns no rank: the api derives the caller's band from the published quartiles.
-- docs/benchmarks.md states what this protects and what it does not.

-- The key of the benchmark noise: 32 bytes from gen_random_uuid() (PostgreSQL's strong random
-- source; 244 random bits). Readable by tierwise_owner only, so no tenant can recompute the noise.
CREATE TABLE benchmark_noise_key (
  only_row  boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  secret    bytea NOT NULL CHECK (octet_length(secret) = 32)
);
REVOKE ALL ON benchmark_noise_key FROM PUBLIC, tierwise_app, tierwise_jobs;
INSERT INTO benchmark_noise_key (secret)
  VALUES (decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'));

-- Mail providers where anyone gets an address for free: every domain listed here is one actor,
-- 'free-mail' (else an attacker would be five actors with five free mailboxes). Operators add
-- providers with INSERT; a provider missing here is a free actor for an attacker (docs/benchmarks.md).
CREATE TABLE free_mail_domains (
  domain  text PRIMARY KEY CHECK (domain = lower(domain))
);
REVOKE ALL ON free_mail_domains FROM PUBLIC, tierwise_app, tierwise_jobs;
INSERT INTO free_mail_domains (domain) VALUES
  ('126.com'), ('163.com'), ('aol.com'), ('fastmail.com'), ('gmail.com'), ('gmx.com'), ('gmx.de'),
  ('gmx.net'), ('googlemail.com'), ('hey.com'), ('hotmail.com'), ('icloud.com'), ('live.com'),
  ('mac.com'), ('mail.com'), ('mail.ru'), ('mailbox.org'), ('me.com'), ('msn.com'), ('outlook.com'),
  ('pm.me'), ('posteo.de'), ('proton.me'), ('protonmail.com'), ('qq.com'), ('tuta.io'),
  ('tutanota.com'), ('web.de'), ('yahoo.co.uk'), ('yahoo.com'), ('yandex.com'), ('yandex.ru'),
  ('ymail.com'), ('zoho.com');

-- The actor behind an e-mail address (lower case, one '@'): the registrable part of its domain,
-- approximated without the Public Suffix List as the last two labels, or three under a
-- two-letter country code whose second level is a registry's ('x.co.uk'), so subdomains of one
-- domain are one actor; 'free-mail' for a domain of free_mail_domains.
CREATE FUNCTION benchmark_actor(p_email text) RETURNS text
  LANGUAGE sql STABLE STRICT
  AS $$
  SELECT CASE WHEN EXISTS (SELECT 1 FROM free_mail_domains f WHERE f.domain = r.domain) THEN 'free-mail' ELSE r.domain END
    FROM (SELECT array_to_string(s.l[greatest(1, s.n - CASE WHEN s.n >= 3 AND length(s.l[s.n]) = 2
                   AND s.l[s.n - 1] IN ('ac', 'co', 'com', 'edu', 'gob', 'gov', 'go', 'ltd', 'mil', 'ne', 'net', 'nic', 'or', 'org', 'plc')
                   THEN 2 ELSE 1 END) : s.n], '.') AS domain
            FROM (SELECT t.l, cardinality(t.l) AS n
                    FROM string_to_array(rtrim(split_part(p_email, '@', 2), '.'), '.') AS t(l)) s) r $$;

-- p_counts (a histogram) plus Laplace(0, 1/epsilon) noise in every bucket, epsilon = 1, negative
-- sums clamped to 0: the Laplace mechanism (Dwork & Roth, The Algorithmic Foundations of
-- Differential Privacy, 2014, Definition 3.3 and Theorem 3.6), for histograms to which one
-- participant adds at most 1 in total (L1 sensitivity 1). Bucket i's noise is the inverse CDF
-- -b sgn(u - 1/2) ln(1 - 2|u - 1/2|) at u in (0, 1) from the first 52 bits of
-- SHA-256(secret || p_key || '#' || i): the same key gives the same noise on every call, so
-- repeated queries cannot average it away. p_key names the release (day, window), the cohort and
-- the figure; no two figures or days share a key. NULL counts: NULL.
CREATE FUNCTION benchmark_noisy_counts(p_key text, p_counts double precision[])
  RETURNS double precision[]
  LANGUAGE sql STABLE STRICT
  AS $$
  SELECT array_agg(greatest(0, c.n - sign(v.x) * ln(1 - 2 * abs(v.x)) / 1.0 /* b = 1 / epsilon */) ORDER BY c.i)
    FROM unnest(p_counts) WITH ORDINALITY AS c(n, i)
    CROSS JOIN benchmark_noise_key k
    CROSS JOIN LATERAL (
      SELECT (('x' || left(encode(sha256(k.secret || convert_to(p_key || '#' || c.i, 'UTF8')), 'hex'), 13))::bit(52)::bigint
              + 0.5)::double precision / 4503599627370496 - 0.5 AS x) v $$;

-- A scalar figure's standing: the caller's own value and the quartiles of the cohort's
-- histogram p_counts over p_bounds (histogram_quantile); quartiles NULL without p_counts.
CREATE FUNCTION benchmark_standing(p_own double precision, p_bounds double precision[], p_counts double precision[])
  RETURNS jsonb
  LANGUAGE sql IMMUTABLE
  AS $$
  SELECT jsonb_build_object('own', p_own,
                            'cohort_p25', histogram_quantile(p_bounds, p_counts, 0.25),
                            'cohort_p50', histogram_quantile(p_bounds, p_counts, 0.5),
                            'cohort_p75', histogram_quantile(p_bounds, p_counts, 0.75)) $$;

REVOKE EXECUTE ON FUNCTION benchmark_actor(text), benchmark_noisy_counts(text, double precision[]),
  benchmark_standing(double precision, double precision[], double precision[]) FROM PUBLIC;

-- A volume's cohort and figures as in migration 201. Participants: the counted tenants of one
-- actor, merged; the caller's own figures are over all its volumes, counted or not. The window
-- is the UTC day's start minus p_days (7 to 31) days; k = 5, 7 days, 1 000 I/Os and epsilon are
-- fixed in the bodies: a caller cannot change them.
CREATE OR REPLACE FUNCTION fleet_benchmarks(p_days integer DEFAULT 7)
  RETURNS TABLE (media text, workload_class text, published boolean, tenant_count integer,
                 volume_ids text[], read_share jsonb, wss_per_capacity jsonb, latency jsonb)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
  AS $$
WITH bounds AS (
  SELECT ARRAY[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]::float8[] AS read_share,
         ARRAY[0.015625, 0.03125, 0.0625, 0.125, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64]::float8[] AS wss_per_capacity),
win AS (
  SELECT date_trunc('day', now(), 'UTC') AS today, least(greatest(p_days, 7), 31) AS days),
release AS (
  SELECT format('%s/%s', to_char(w.today AT TIME ZONE 'UTC', 'YYYY-MM-DD'), w.days) AS key FROM win w),
day AS (
  SELECT r.* FROM metric_rollups r CROSS JOIN win w
   WHERE r.resolution = '1d' AND r.scope = 'volume' AND r.window_start >= w.today - make_interval(days => w.days)),
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
-- A tenant's actor: the e-mail domain of its first owner with a verified address.
actor AS (
  SELECT DISTINCT ON (ms.tenant_id) ms.tenant_id, benchmark_actor(u.email) AS actor
    FROM memberships ms JOIN users u ON u.id = ms.user_id
   WHERE ms.role = 'owner' AND u.email_verified_at IS NOT NULL
   ORDER BY ms.tenant_id, ms.created_at, ms.user_id),
-- Tenants counted in a cohort: an actor, and 7 days or more of the window with at least
-- 1 000 front-end I/Os on their volumes of the cohort.
counted AS (
  SELECT t.tenant_id, t.media, t.workload_class, t.actor
    FROM (SELECT m.tenant_id, m.media, m.workload_class, a.actor
            FROM member m
            JOIN actor a ON a.tenant_id = m.tenant_id
            JOIN day d ON d.tenant_id = m.tenant_id AND d.scope_id = m.volume_id
           GROUP BY m.tenant_id, m.media, m.workload_class, a.actor, d.window_start
          HAVING sum(d.read_ops + d.write_ops) >= 1000) t
   GROUP BY 1, 2, 3, 4 HAVING count(*) >= 7),
-- The volumes of each participant (an actor's counted tenants) and, as participant NULL, the caller's.
part AS (
  SELECT c.actor AS participant, m.* FROM member m JOIN counted c USING (tenant_id, media, workload_class)
  UNION ALL
  SELECT NULL, m.* FROM member m WHERE m.tenant_id = current_tenant_id()),
fig AS (
  SELECT p.participant, p.media, p.workload_class,
         sum(p.read_ops) / sum(p.read_ops + p.write_ops) AS read_share,
         sum(p.wss_bytes) FILTER (WHERE p.capacity_bytes > 0)
           / nullif(sum(p.capacity_bytes) FILTER (WHERE p.capacity_bytes > 0 AND p.wss_bytes IS NOT NULL), 0)
           AS wss_per_capacity
    FROM part p GROUP BY 1, 2, 3),
cohort AS (
  SELECT f.media, f.workload_class, count(*)::int AS participants,
         bucket_counts(b.read_share, array_agg(f.read_share)) AS read_share_counts,
         bucket_counts(b.wss_per_capacity, array_agg(f.wss_per_capacity) FILTER (WHERE f.wss_per_capacity IS NOT NULL))
           AS wss_counts,
         count(f.wss_per_capacity)::int AS wss_participants
    FROM fig f CROSS JOIN bounds b WHERE f.participant IS NOT NULL
   GROUP BY 1, 2, b.read_share, b.wss_per_capacity),
lat AS (
  SELECT p.participant, p.media, p.workload_class, dir.key AS direction, bin.key AS size_bin, e.ord AS bucket,
         sum(e.n::float8) AS n
    FROM part p
    JOIN day d ON d.tenant_id = p.tenant_id AND d.scope_id = p.volume_id
    CROSS JOIN LATERAL jsonb_each(d.latency_us) AS dir
    CROSS JOIN LATERAL jsonb_each(dir.value) AS bin
    CROSS JOIN LATERAL jsonb_array_elements_text(bin.value) WITH ORDINALITY AS e(n, ord)
   GROUP BY 1, 2, 3, 4, 5, 6),
-- Each participant's histogram normalised to 1, summed per cohort, direction and ioLength bin.
lat_cohort AS (
  SELECT x.media, x.workload_class, x.direction, x.size_bin, array_agg(x.w ORDER BY x.bucket) AS weights,
         max(x.participants) AS participants
    FROM (SELECT l.media, l.workload_class, l.direction, l.size_bin, l.bucket, coalesce(sum(l.w), 0) AS w,
                 count(DISTINCT l.participant) FILTER (WHERE l.w IS NOT NULL) AS participants
            FROM (SELECT l.*, l.n / nullif(sum(l.n) OVER (PARTITION BY l.participant, l.media, l.workload_class,
                                                                      l.direction, l.size_bin), 0) AS w
                    FROM lat l WHERE l.participant IS NOT NULL) l
           GROUP BY 1, 2, 3, 4, 5) x
   GROUP BY 1, 2, 3, 4),
lat_mine AS (
  SELECT l.media, l.workload_class, l.direction, l.size_bin, array_agg(l.n ORDER BY l.bucket) AS counts
    FROM lat l WHERE l.participant IS NULL GROUP BY 1, 2, 3, 4)
SELECT me.media, me.workload_class, coalesce(c.participants >= 5, false),
       CASE WHEN c.participants >= 5
            THEN greatest(5, round((benchmark_noisy_counts(k.prefix || 'participants', ARRAY[c.participants::float8]))[1]))::int END,
       (SELECT array_agg(m.volume_id ORDER BY m.volume_id) FROM member m
         WHERE m.tenant_id = current_tenant_id() AND m.media = me.media AND m.workload_class = me.workload_class),
       benchmark_standing(me.read_share, b.read_share,
         CASE WHEN c.participants >= 5 THEN benchmark_noisy_counts(k.prefix || 'read_share', c.read_share_counts) END),
       benchmark_standing(me.wss_per_capacity, b.wss_per_capacity,
         CASE WHEN c.wss_participants >= 5 THEN benchmark_noisy_counts(k.prefix || 'wss_per_capacity', c.wss_counts) END),
       coalesce((
         SELECT jsonb_agg(jsonb_build_object(
                  'direction', lm.direction, 'size_bin', lm.size_bin,
                  'own_p50_us', histogram_quantile(rollup_latency_bounds_us(), lm.counts, 0.5),
                  'own_p95_us', histogram_quantile(rollup_latency_bounds_us(), lm.counts, 0.95),
                  'own_p99_us', histogram_quantile(rollup_latency_bounds_us(), lm.counts, 0.99),
                  'cohort_p50_us', histogram_quantile(rollup_latency_bounds_us(), n.weights, 0.5),
                  'cohort_p95_us', histogram_quantile(rollup_latency_bounds_us(), n.weights, 0.95),
                  'cohort_p99_us', histogram_quantile(rollup_latency_bounds_us(), n.weights, 0.99))
                ORDER BY lm.direction, CASE WHEN lm.size_bin LIKE '>%' THEN 1e12 ELSE lm.size_bin::numeric END)
           FROM lat_mine lm
           LEFT JOIN lat_cohort lc ON lc.media = lm.media AND lc.workload_class = lm.workload_class
                                  AND lc.direction = lm.direction AND lc.size_bin = lm.size_bin
           CROSS JOIN LATERAL (
             SELECT CASE WHEN c.participants >= 5 AND lc.participants >= 5
                         THEN benchmark_noisy_counts(k.prefix || 'latency/' || lm.direction || '/' || lm.size_bin, lc.weights)
                         END AS weights) n
          WHERE lm.media = me.media AND lm.workload_class = me.workload_class), '[]'::jsonb)
  FROM fig me
  CROSS JOIN bounds b
  CROSS JOIN release r
  CROSS JOIN LATERAL (SELECT format('%s/%s/%s/', r.key, me.media, me.workload_class) AS prefix) k
  LEFT JOIN cohort c ON c.media = me.media AND c.workload_class = me.workload_class
 WHERE me.participant IS NULL
 ORDER BY me.media, me.workload_class $$;

-- Down Migration
CREATE OR REPLACE FUNCTION fleet_benchmarks(p_days integer DEFAULT 7)
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
DROP FUNCTION benchmark_actor(text), benchmark_noisy_counts(text, double precision[]),
  benchmark_standing(double precision, double precision[], double precision[]);
DROP TABLE benchmark_noise_key, free_mail_domains;
