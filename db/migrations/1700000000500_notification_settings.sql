-- Up Migration
-- Notifications, second cut (issue 8): Slack bot channels and e-mail digests,
-- routes with a severity filter, timezone-aware mute windows, alert rules with
-- incidents, account e-mails (no channel), and the key that signs unsubscribe links.

-- Severity order of events and route filters: info < warning < critical.
CREATE FUNCTION severity_rank(severity text) RETURNS integer
  IMMUTABLE LANGUAGE sql AS $$ SELECT array_position(ARRAY['info', 'warning', 'critical'], severity) $$;

-- Whether a name is an IANA time zone PostgreSQL knows (for CHECK constraints).
CREATE FUNCTION is_time_zone(name text) RETURNS boolean
  IMMUTABLE LANGUAGE plpgsql AS $$
BEGIN
  PERFORM now() AT TIME ZONE name;
  RETURN true;
EXCEPTION WHEN invalid_parameter_value THEN
  RETURN false;
END $$;

-- Channels. kind 'email': target is the recipient's address, digest says whether
-- each event is mailed at once or collected into a daily or weekly digest (periods
-- end at midnight, Monday for weekly, in digest_timezone). kind 'slack-webhook':
-- target is the incoming-webhook URL (a secret). kind 'slack-bot': target is the
-- Slack channel id or #name, secret the bot token (xoxb-…) for chat.postMessage.
-- The api never returns target of Slack channels nor secret.
-- unsubscribed_at: set by the e-mail's one-click unsubscribe (RFC 8058); such a
-- channel gets no further deliveries, like a disabled one.
ALTER TABLE notification_channels
  ADD COLUMN name text NOT NULL DEFAULT '',
  ADD COLUMN secret text,
  ADD COLUMN digest text NOT NULL DEFAULT 'immediate' CHECK (digest IN ('immediate', 'daily', 'weekly')),
  ADD COLUMN digest_timezone text NOT NULL DEFAULT 'UTC' CHECK (is_time_zone(digest_timezone)),
  ADD COLUMN unsubscribed_at timestamptz,
  DROP CONSTRAINT notification_channels_kind_check,
  DROP CONSTRAINT notification_channels_target_valid,
  ADD CONSTRAINT notification_channels_kind_check CHECK (kind IN ('email', 'slack-webhook', 'slack-bot')),
  ADD CONSTRAINT notification_channels_target_valid CHECK (
    (kind = 'email' AND target ~ '^[^@[:space:]]+@[^@[:space:]]+$' AND secret IS NULL)
    OR (kind = 'slack-webhook' AND target ~ '^https?://' AND secret IS NULL AND digest = 'immediate')
    OR (kind = 'slack-bot' AND target ~ '^#?[A-Za-z0-9._-]{1,80}$' AND secret IS NOT NULL AND digest = 'immediate')),
  ADD CONSTRAINT notification_channels_tenant_id_id UNIQUE (tenant_id, id);

-- Routes: which event kinds of at least which severity go to which channel. The
-- composite foreign key keeps a route inside its channel's tenant.
CREATE TABLE notification_routes (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id    uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  channel_id   uuid NOT NULL,
  event_kinds  text[] NOT NULL CHECK (cardinality(event_kinds) > 0 AND event_kinds <@ ARRAY[
                 'recommendation.created', 'recommendation.updated', 'alert.firing', 'alert.resolved']),
  min_severity text NOT NULL DEFAULT 'info' CHECK (severity_rank(min_severity) IS NOT NULL),
  created_at   timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (tenant_id, channel_id) REFERENCES notification_channels(tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX notification_routes_channel ON notification_routes (tenant_id, channel_id);
INSERT INTO notification_routes (tenant_id, channel_id, event_kinds)
  SELECT tenant_id, id, event_kinds FROM notification_channels;
ALTER TABLE notification_channels DROP COLUMN event_kinds;

-- Mute windows: from starts to ends (local wall-clock time in timezone; ends < starts
-- wraps past midnight) on the ISO days of week listed (1 = Monday; a window that
-- wraps belongs to the day it starts). channel_id NULL mutes every channel of the
-- tenant. Deliveries due inside a window wait until it ends (they are not dropped).
CREATE TABLE notification_mute_windows (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id  uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  name       text NOT NULL DEFAULT '',
  channel_id uuid,
  timezone   text NOT NULL CHECK (is_time_zone(timezone)),
  days       smallint[] NOT NULL DEFAULT '{1,2,3,4,5,6,7}'
               CHECK (cardinality(days) > 0 AND days <@ '{1,2,3,4,5,6,7}'::smallint[]),
  starts     time NOT NULL,
  ends       time NOT NULL CHECK (ends <> starts),
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (tenant_id, channel_id) REFERENCES notification_channels(tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX notification_mute_windows_tenant ON notification_mute_windows (tenant_id);

-- The end of the mute window that covers instant p_at for a channel, or NULL when
-- none does (the latest end when several overlap). Local times come from
-- PostgreSQL's IANA time zone data, so DST shifts are the database's.
CREATE FUNCTION notification_muted_until(p_tenant_id uuid, p_channel_id uuid, p_at timestamptz)
  RETURNS timestamptz STABLE LANGUAGE sql AS $$
  SELECT max(CASE
           WHEN w.starts < w.ends AND l.local::time >= w.starts AND l.local::time < w.ends
                AND extract(isodow FROM l.local)::smallint = ANY (w.days)
             THEN (l.local::date + w.ends) AT TIME ZONE w.timezone
           WHEN w.starts > w.ends AND l.local::time >= w.starts
                AND extract(isodow FROM l.local)::smallint = ANY (w.days)
             THEN (l.local::date + 1 + w.ends) AT TIME ZONE w.timezone
           WHEN w.starts > w.ends AND l.local::time < w.ends
                AND extract(isodow FROM l.local::date - 1)::smallint = ANY (w.days)
             THEN (l.local::date + w.ends) AT TIME ZONE w.timezone
         END)
    FROM notification_mute_windows w
   CROSS JOIN LATERAL (SELECT p_at AT TIME ZONE w.timezone AS local) l
   WHERE w.tenant_id = p_tenant_id AND (w.channel_id IS NULL OR w.channel_id = p_channel_id) $$;

-- Events carry a severity (recommendations: info; alerts: their rule's).
-- account.email events (verification, password reset, invitation; written by the
-- accounts code with payload {to, subject, text, html}) go to payload.to only.
ALTER TABLE outbox ADD COLUMN severity text NOT NULL DEFAULT 'info' CHECK (severity_rank(severity) IS NOT NULL);

-- Deliveries get their own id: an account e-mail has no channel (channel_id NULL,
-- idempotency key '<outbox id>.account'). status 'held': waiting for its channel's
-- digest; digest_key names the digest e-mail that carried it.
ALTER TABLE delivery_attempts ADD COLUMN delivery_id bigint;
ALTER TABLE delivery_attempts DROP CONSTRAINT delivery_attempts_outbox_id_channel_id_fkey;
ALTER TABLE deliveries
  DROP CONSTRAINT deliveries_pkey,
  ADD COLUMN id bigserial PRIMARY KEY,
  ALTER COLUMN channel_id DROP NOT NULL,
  ADD COLUMN digest_key text,
  DROP CONSTRAINT deliveries_status_check,
  ADD CONSTRAINT deliveries_status_check CHECK (status IN ('pending', 'held', 'sent', 'dead')),
  ADD CONSTRAINT deliveries_once UNIQUE NULLS NOT DISTINCT (outbox_id, channel_id);
CREATE INDEX deliveries_log ON deliveries (tenant_id, id DESC);
CREATE INDEX deliveries_held ON deliveries (channel_id) WHERE status = 'held';
UPDATE delivery_attempts a SET delivery_id = d.id FROM deliveries d
 WHERE d.outbox_id = a.outbox_id AND d.channel_id = a.channel_id;
ALTER TABLE delivery_attempts
  DROP COLUMN outbox_id,
  DROP COLUMN channel_id,
  ALTER COLUMN delivery_id SET NOT NULL,
  ADD FOREIGN KEY (delivery_id) REFERENCES deliveries(id) ON DELETE CASCADE;
CREATE INDEX delivery_attempts_delivery ON delivery_attempts (delivery_id);

-- Alert rules, evaluated by the notifier over the metrics tables
-- (services/notifier/src/alerts). kind and threshold:
--   hit_ratio_drop : the hit ratio of the last window_seconds is at least threshold
--                    (a ratio, 0.2 = 20 points) below that of the hour before;
--   agent_silent   : a host has sent nothing for threshold seconds;
--   latency        : the mean latency of the block-size bin bin_upper_bytes over
--                    window_seconds is above threshold microseconds;
--   destage_backlog: dirty bytes waiting for destage are above threshold bytes;
--   write_back_fallback: a volume configured write-back runs write-through (threshold unused).
-- volume_id NULL: every volume of the tenant.
CREATE TABLE alert_rules (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id       uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  name            text NOT NULL,
  kind            text NOT NULL CHECK (kind IN ('hit_ratio_drop', 'agent_silent', 'latency', 'destage_backlog', 'write_back_fallback')),
  volume_id       text,
  bin_upper_bytes bigint CHECK ((kind = 'latency') = (bin_upper_bytes IS NOT NULL)),
  threshold       double precision NOT NULL CHECK (threshold >= 0),
  window_seconds  integer NOT NULL DEFAULT 300 CHECK (window_seconds BETWEEN 10 AND 86400),
  severity        text NOT NULL DEFAULT 'warning' CHECK (severity_rank(severity) IS NOT NULL),
  enabled         boolean NOT NULL DEFAULT true,
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, id)
);

-- One row per incident: a rule's condition true for a subject (volume or host id)
-- from opened_at until resolved_at. At most one open incident per rule and subject,
-- so a condition that stays true fires once.
CREATE TABLE alert_incidents (
  id          bigserial PRIMARY KEY,
  tenant_id   uuid NOT NULL,
  rule_id     uuid NOT NULL,
  subject     text NOT NULL,
  value       double precision NOT NULL,
  opened_at   timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz,
  FOREIGN KEY (tenant_id, rule_id) REFERENCES alert_rules(tenant_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX alert_incidents_open ON alert_incidents (rule_id, subject) WHERE resolved_at IS NULL;

-- Cache health per volume and interval, beside volume_metrics_10s: the signals the
-- alert rules read that the metrics rollup does not keep yet (OTLP names in
-- proto/METRICS.md: tierwise.io.latency per tierwise.io.size_bin, tierwise.cache.dirty,
-- tierwise.cache.mode). latency_us_sum / latency_ops: per ioLength bin upper bound
-- (bytes, as text keys; mean = sum / ops).
CREATE TABLE volume_cache_health_10s (
  tenant_id      uuid NOT NULL,
  volume_id      text NOT NULL,
  interval_start timestamptz NOT NULL,
  configured_mode text NOT NULL CHECK (configured_mode IN ('write-through', 'write-back')),
  effective_mode  text NOT NULL CHECK (effective_mode IN ('write-through', 'write-back')),
  dirty_bytes    bigint NOT NULL DEFAULT 0,
  latency_us_sum jsonb NOT NULL DEFAULT '{}',
  latency_ops    jsonb NOT NULL DEFAULT '{}',
  PRIMARY KEY (tenant_id, volume_id, interval_start)
);

-- The key that signs unsubscribe links (HMAC-SHA256; services/common unsubscribe-token):
-- the notifier signs, the api verifies. Not tenant data.
CREATE TABLE notification_signing_keys (
  purpose    text PRIMARY KEY,
  key        bytea NOT NULL CHECK (octet_length(key) >= 32),
  created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO notification_signing_keys (purpose, key)
  VALUES ('unsubscribe', uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()));
GRANT SELECT ON notification_signing_keys TO tierwise_app, tierwise_jobs;

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['notification_routes', 'notification_mute_windows', 'alert_rules', 'alert_incidents', 'volume_cache_health_10s'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO tierwise_app, tierwise_jobs', t);
  END LOOP;
END $$;
GRANT USAGE ON SEQUENCE deliveries_id_seq, alert_incidents_id_seq TO tierwise_app, tierwise_jobs;

-- Down Migration
DROP TABLE IF EXISTS notification_signing_keys, volume_cache_health_10s, alert_incidents, alert_rules CASCADE;
DELETE FROM delivery_attempts;
DELETE FROM deliveries WHERE channel_id IS NULL;
DROP INDEX IF EXISTS deliveries_log, deliveries_held;
ALTER TABLE delivery_attempts DROP COLUMN delivery_id,
  ADD COLUMN outbox_id bigint NOT NULL, ADD COLUMN channel_id uuid NOT NULL;
ALTER TABLE deliveries DROP CONSTRAINT deliveries_once, DROP CONSTRAINT deliveries_pkey, DROP COLUMN id,
  DROP COLUMN digest_key, ALTER COLUMN channel_id SET NOT NULL, ADD PRIMARY KEY (outbox_id, channel_id),
  DROP CONSTRAINT deliveries_status_check,
  ADD CONSTRAINT deliveries_status_check CHECK (status IN ('pending', 'sent', 'dead'));
ALTER TABLE delivery_attempts ADD FOREIGN KEY (outbox_id, channel_id) REFERENCES deliveries(outbox_id, channel_id) ON DELETE CASCADE;
ALTER TABLE outbox DROP COLUMN severity;
DROP FUNCTION IF EXISTS notification_muted_until(uuid, uuid, timestamptz);
DROP TABLE IF EXISTS notification_mute_windows;
ALTER TABLE notification_channels ADD COLUMN event_kinds text[] NOT NULL DEFAULT ARRAY['recommendation.created', 'recommendation.updated'];
UPDATE notification_channels c SET event_kinds = r.event_kinds FROM notification_routes r WHERE r.channel_id = c.id;
DROP TABLE IF EXISTS notification_routes;
DELETE FROM notification_channels WHERE kind = 'slack-bot';
ALTER TABLE notification_channels
  DROP CONSTRAINT notification_channels_tenant_id_id,
  DROP CONSTRAINT notification_channels_target_valid,
  DROP CONSTRAINT notification_channels_kind_check,
  DROP COLUMN name, DROP COLUMN secret, DROP COLUMN digest, DROP COLUMN digest_timezone, DROP COLUMN unsubscribed_at,
  ADD CONSTRAINT notification_channels_kind_check CHECK (kind IN ('email', 'slack-webhook')),
  ADD CONSTRAINT notification_channels_target_valid CHECK (
    (kind = 'email' AND target ~ '^[^@[:space:]]+@[^@[:space:]]+$')
    OR (kind = 'slack-webhook' AND target ~ '^https?://'));
DROP FUNCTION IF EXISTS is_time_zone(text);
DROP FUNCTION IF EXISTS severity_rank(text);
