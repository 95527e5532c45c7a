-- Up Migration
-- SIEVE (Zhang et al., NSDI 2024) joins the eviction policies of the agent's cache engine
-- (docs/eviction.md); the vocabulary is services/common/src/contracts/cache-policy.ts.
ALTER TABLE volume_policies DROP CONSTRAINT volume_policies_eviction_check;
ALTER TABLE volume_policies ADD CONSTRAINT volume_policies_eviction_check
  CHECK (eviction IN ('lru', 's3-fifo', 'arc', '2q', 'sieve'));

-- Down Migration
DELETE FROM volume_policies WHERE eviction = 'sieve';
ALTER TABLE volume_policies DROP CONSTRAINT volume_policies_eviction_check;
ALTER TABLE volume_policies ADD CONSTRAINT volume_policies_eviction_check
  CHECK (eviction IN ('lru', 's3-fifo', 'arc', '2q'));
