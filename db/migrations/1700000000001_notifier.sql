-- Up Migration
-- Notifications (issue 8): per-tenant channels, a transactional outbox fed by a
-- trigger on recommendations, and one delivery row per (event, channel) that the
-- notifier (services/notifier) sends with retries, backoff and a dead letter.

-- Where a tenant's events go. kind 'email': target is an address; kind
-- 'slack-webhook': target is a Slack incoming-webhook URL. event_kinds is the
-- routing filter: only events whose kind is listed are delivered here.
CREATE TABLE notification_channels (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id   uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  kind        text NOT NULL CHECK (kind IN ('email', 'slack-webhook')),
  target      text NOT NULL,
  enabled     boolean NOT NULL DEFAULT true,
  event_kinds text[] NOT NULL DEFAULT ARRAY['recommendation.created', 'recommendation.updated'],
  created_at  timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT notification_channels_target_valid CHECK (
    (kind = 'email' AND target ~ '^[^@[:space:]]+@[^@[:space:]]+$')
    OR (kind = 'slack-webhook' AND target ~ '^https?://'))
);
CREATE INDEX notification_channels_tenant ON notification_channels (tenant_id);

-- Events to notify, written in the same transaction as the change they describe.
-- fanned_out_at is set once the notifier has created the event's deliveries.
-- No foreign key to tenants, like the result tables the stream jobs write: a
-- recommendation write must never fail because of its outbox row.
CREATE TABLE outbox (
  id            bigserial PRIMARY KEY,
  tenant_id     uuid NOT NULL,
  event_kind    text NOT NULL,
  payload       jsonb NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  fanned_out_at timestamptz
);
CREATE INDEX outbox_not_fanned_out ON outbox (id) WHERE fanned_out_at IS NULL;

-- One row per (event, channel). idempotency_key = '<outbox id>.<channel id>',
-- sent as the email's Message-ID and with every Slack attempt. status: pending
-- (waiting for next_attempt_at), sent, dead (dead letter: permanent error or
-- too many attempts; last_error says why).
CREATE TABLE deliveries (
  outbox_id       bigint NOT NULL REFERENCES outbox(id) ON DELETE CASCADE,
  channel_id      uuid NOT NULL REFERENCES notification_channels(id) ON DELETE CASCADE,
  tenant_id       uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  idempotency_key text NOT NULL UNIQUE,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'dead')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error      text,
  sent_at         timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (outbox_id, channel_id)
);
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending';

-- The delivery log: one row per attempt (outcome 'sent', 'retry' or 'dead').
CREATE TABLE delivery_attempts (
  id          bigserial PRIMARY KEY,
  outbox_id   bigint NOT NULL,
  channel_id  uuid NOT NULL,
  tenant_id   uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  attempt     integer NOT NULL,
  outcome     text NOT NULL CHECK (outcome IN ('sent', 'retry', 'dead')),
  error       text,
  at          timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (outbox_id, channel_id) REFERENCES deliveries(outbox_id, channel_id) ON DELETE CASCADE
);

-- The outbox event of a recommendation write, in the writer's transaction
-- (the Flink jobs upsert recommendations: INSERT .. ON CONFLICT DO UPDATE).
CREATE FUNCTION enqueue_recommendation_event() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO outbox (tenant_id, event_kind, payload)
  VALUES (NEW.tenant_id,
          CASE TG_OP WHEN 'INSERT' THEN 'recommendation.created' ELSE 'recommendation.updated' END,
          jsonb_build_object(
            'volume_id', NEW.volume_id,
            'tier_bytes', NEW.tier_bytes,
            'media', NEW.media,
            'policy', NEW.policy,
            'predicted_hit_ratio', NEW.predicted_hit_ratio,
            'achievable_hit_ratio', NEW.achievable_hit_ratio,
            'target_hit_ratio', NEW.target_hit_ratio,
            'explanation', NEW.explanation,
            'created_at', NEW.created_at));
  RETURN NULL;
END $$;

CREATE TRIGGER recommendations_outbox_insert
  AFTER INSERT ON recommendations
  FOR EACH ROW EXECUTE FUNCTION enqueue_recommendation_event();
CREATE TRIGGER recommendations_outbox_update
  AFTER UPDATE ON recommendations
  FOR EACH ROW
  WHEN (OLD.tier_bytes IS DISTINCT FROM NEW.tier_bytes
        OR OLD.media IS DISTINCT FROM NEW.media
        OR OLD.policy IS DISTINCT FROM NEW.policy)
  EXECUTE FUNCTION enqueue_recommendation_event();

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['notification_channels', 'outbox', 'deliveries', 'delivery_attempts'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO tierwise_app, tierwise_jobs', t);
  END LOOP;
END $$;
GRANT USAGE ON SEQUENCE outbox_id_seq, delivery_attempts_id_seq TO tierwise_app, tierwise_jobs;

-- Down Migration
DROP TRIGGER IF EXISTS recommendations_outbox_update ON recommendations;
DROP TRIGGER IF EXISTS recommendations_outbox_insert ON recommendations;
DROP FUNCTION IF EXISTS enqueue_recommendation_event();
DROP TABLE IF EXISTS delivery_attempts, deliveries, outbox, notification_channels CASCADE;
