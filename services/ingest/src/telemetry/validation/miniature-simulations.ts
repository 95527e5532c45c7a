import { EvictionPolicy, type MessageView, type ReferenceBatch } from '@tierwise/proto';
import { checkSimulationList, type SimulationList } from './simulation-list.js';
import { reject } from './validation.js';

/** The engine's eviction policies a batch may name (proto/tierwise/v1/reference_batch.proto, EvictionPolicy). */
const POLICIES: readonly EvictionPolicy[] = [
  EvictionPolicy.LRU,
  EvictionPolicy.S3FIFO,
  EvictionPolicy.ARC,
  EvictionPolicy.TWO_Q,
  EvictionPolicy.SIEVE,
];

/**
 * Checks a batch's miniature simulations (ReferenceBatch.miniature_policies, miniature_simulations
 * and host_tier_simulations, fields 15 to 17; docs/analytics.md "Every policy's miss ratio
 * curve"). No policies and no simulations (an older agent) passes; either list of simulations
 * needs policies. The policies: at most 5, each one of LRU, S3FIFO, ARC, TWO_Q, SIEVE, none twice,
 * LRU among them (the control variate the other policies' curves are differences to). Both lists
 * as {@link checkSimulationList} says, miniature_simulations with strictly ascending cache_bytes,
 * host_tier_simulations with a size again only at a strictly lower sampling_threshold (T_C) than
 * the entry before (one entry per T_C the host's tier counted the batch's references at).
 *
 * @param batch the batch as protobufjs decodes it (`ReferenceBatch.decodeMessage`).
 * @param threshold the batch's sampling_threshold T.
 * @param references the batch's sampled references (carried or summarised).
 * @throws ApiError invalid_body naming the first offending field.
 */
export function checkMiniatureSimulations(batch: MessageView<ReferenceBatch>, threshold: bigint, references: bigint): void {
  const policies = batch.miniaturePolicies;
  const lists: SimulationList[] = [
    { field: 'miniature_simulations', simulations: batch.miniatureSimulations, repeats: false },
    { field: 'host_tier_simulations', simulations: batch.hostTierSimulations, repeats: true },
  ];
  if (policies.length === 0) {
    const orphan = lists.find((list) => list.simulations.length > 0);
    if (orphan) {
      reject(`${orphan.field} need miniature_policies (the policies their misses are counted for)`);
    }
    return;
  }
  checkPolicies(policies);
  for (const list of lists) {
    checkSimulationList(list, policies.length, threshold, references);
  }
}

/**
 * At most one of each known policy, LRU among them.
 * @throws ApiError invalid_body naming the first offending policy.
 */
function checkPolicies(policies: readonly EvictionPolicy[]): void {
  if (policies.length > POLICIES.length) {
    reject(`batch holds ${policies.length} miniature_policies; at most ${POLICIES.length} are accepted`);
  }
  const seen = new Set<EvictionPolicy>();
  policies.forEach((policy, i) => {
    if (!POLICIES.includes(policy)) {
      reject(`miniature_policies[${i}] must be one of ${POLICIES.map((p) => EvictionPolicy[p]).join(', ')}, got ${policy}`);
    }
    if (seen.has(policy)) {
      reject(`miniature_policies[${i}]: ${EvictionPolicy[policy]} is listed twice`);
    }
    seen.add(policy);
  });
  if (!seen.has(EvictionPolicy.LRU)) {
    reject(`miniature_policies must include LRU (the control variate the other policies' curves are differences to)`);
  }
}
