import { EvictionPolicy, longToBigInt, type MessageView, type ReferenceBatch } from '@tierwise/proto';
import { reject } from './validation.js';

/** The engine's eviction policies a batch may name (proto/tierwise/v1/reference_batch.proto, EvictionPolicy). */
const POLICIES: readonly EvictionPolicy[] = [
  EvictionPolicy.LRU,
  EvictionPolicy.S3FIFO,
  EvictionPolicy.ARC,
  EvictionPolicy.TWO_Q,
  EvictionPolicy.SIEVE,
];
/** Most cache sizes in one batch (the agent's grid, 4 MiB to 64 GiB, has 29). */
const MAX_MINIATURE_SIMULATIONS = 64;
const BLOCK_BYTES = 4096n;
/** cache_bytes stays below 2^63: the working-set job reads it as a signed 64-bit integer (MiniatureBatchParser). */
const MAX_CACHE_BYTES = (1n << 63n) - BLOCK_BYTES;

/**
 * Checks a batch's miniature simulations (ReferenceBatch.miniature_policies and
 * miniature_simulations, fields 15 and 16; docs/analytics.md "Every policy's miss ratio curve").
 * Neither (an older agent) passes. Simulations need policies. The policies: at most 5, each one of
 * LRU, S3FIFO, ARC, TWO_Q, SIEVE, none twice, LRU among them (the control variate the other
 * policies' curves are differences to). At most 64 simulations, each with cache_bytes a positive
 * multiple of 4096 below 2^63 ascending strictly, 0 < sampling_threshold (T_C) <= the batch's T,
 * 1 <= references <= the batch's references, read_references <= references, and one count per
 * policy in misses (each <= references) and read_misses (each <= read_references and <= the
 * policy's misses).
 *
 * @param batch the batch as protobufjs decodes it (`ReferenceBatch.decodeMessage`).
 * @param threshold the batch's sampling_threshold T.
 * @throws ApiError invalid_body naming the first offending field.
 */
export function checkMiniatureSimulations(batch: MessageView<ReferenceBatch>, threshold: bigint): void {
  const policies = batch.miniaturePolicies;
  const simulations = batch.miniatureSimulations;
  if (policies.length === 0) {
    if (simulations.length > 0) {
      reject('miniature_simulations need miniature_policies (the policies their misses are counted for)');
    }
    return;
  }
  checkPolicies(policies);
  if (simulations.length > MAX_MINIATURE_SIMULATIONS) {
    reject(`batch holds ${simulations.length} miniature_simulations; at most ${MAX_MINIATURE_SIMULATIONS} are accepted`);
  }
  const batchReferences = BigInt(batch.references.length);
  let previousBytes = 0n;
  simulations.forEach((simulation, i) => {
    const at = `miniature_simulations[${i}]`;
    const cacheBytes = longToBigInt(simulation.cacheBytes);
    if (cacheBytes <= 0n || cacheBytes > MAX_CACHE_BYTES || cacheBytes % BLOCK_BYTES !== 0n) {
      reject(`${at}.cache_bytes must be a positive multiple of ${BLOCK_BYTES} below 2^63, got ${cacheBytes}`);
    }
    if (cacheBytes <= previousBytes) {
      reject(`${at}.cache_bytes ${cacheBytes} does not ascend (the previous size is ${previousBytes})`);
    }
    previousBytes = cacheBytes;
    const sizeThreshold = longToBigInt(simulation.samplingThreshold);
    if (sizeThreshold <= 0n || sizeThreshold > threshold) {
      reject(`${at}.sampling_threshold must be in 1..sampling_threshold (${threshold}), got ${sizeThreshold}`);
    }
    const references = longToBigInt(simulation.references);
    if (references < 1n || references > batchReferences) {
      reject(`${at}.references must be in 1..${batchReferences} (the batch's references), got ${references}`);
    }
    const readReferences = longToBigInt(simulation.readReferences);
    if (readReferences > references) {
      reject(`${at}.read_references ${readReferences} is above references ${references}`);
    }
    if (simulation.misses.length !== policies.length) {
      reject(`${at}.misses holds ${simulation.misses.length} counts; miniature_policies holds ${policies.length}`);
    }
    if (simulation.readMisses.length !== policies.length) {
      reject(`${at}.read_misses holds ${simulation.readMisses.length} counts; miniature_policies holds ${policies.length}`);
    }
    simulation.misses.forEach((missesLong, j) => {
      const misses = longToBigInt(missesLong);
      const readMisses = longToBigInt(simulation.readMisses[j]);
      if (misses > references) {
        reject(`${at}.misses[${j}] ${misses} is above references ${references}`);
      }
      if (readMisses > readReferences) {
        reject(`${at}.read_misses[${j}] ${readMisses} is above read_references ${readReferences}`);
      }
      if (readMisses > misses) {
        reject(`${at}.read_misses[${j}] ${readMisses} is above misses[${j}] ${misses}`);
      }
    });
  });
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
