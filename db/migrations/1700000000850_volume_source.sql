-- Up Migration
-- Issue 18: where a volume's figures come from. 'agent': measured by the Tierwise agent;
-- 'vscsistats': imported from VMware `vscsiStats -p all -c` output (`tierwise-agent
-- import-vscsistats`, resource attribute tierwise.volume.source, proto/METRICS.md), for hosts
-- that cannot run the agent (ESXi). Ingest writes it from each metrics batch; the portal shows
-- such a volume as imported.
ALTER TABLE volumes ADD COLUMN source text NOT NULL DEFAULT 'agent'
  CONSTRAINT volumes_source_check CHECK (source IN ('agent', 'vscsistats'));

-- Down Migration
ALTER TABLE volumes DROP COLUMN source;
