-- Up Migration
-- When an agent's telemetry last reached ingest: GET /v1/agents shows it beside the
-- health the agent reports itself (an agent that only replays traces sends telemetry
-- but no health). Read as max(received_at) of the agent's accepted batches; this index
-- makes that one index probe per listed agent.
CREATE INDEX ingested_batches_agent_received_idx ON ingested_batches (tenant_id, agent_id, received_at DESC);

-- Down Migration
DROP INDEX ingested_batches_agent_received_idx;
