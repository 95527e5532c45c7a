-- Up Migration
-- An outbox event belongs to its tenant: deleting the tenant deletes its events
-- (and, by the existing cascade, their deliveries and attempts). Before this, an
-- undelivered event of a deleted tenant failed the notifier's fan-out (its
-- INSERT into deliveries broke deliveries_tenant_id_fkey) on every poll, so no
-- event queued behind it was ever delivered.
DELETE FROM outbox o WHERE NOT EXISTS (SELECT 1 FROM tenants t WHERE t.id = o.tenant_id);
ALTER TABLE outbox
  ADD CONSTRAINT outbox_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE;

-- Down Migration
ALTER TABLE outbox DROP CONSTRAINT outbox_tenant_id_fkey;
