import { longToBigInt, type MessageView, type MiniatureSimulation } from '@tierwise/proto';
import { reject } from './validation.js';

/** Most cache sizes in one list of simulations (the agent's grid, 4 MiB to 64 GiB, has 29). */
const MAX_SIZES = 64;
const BLOCK_BYTES = 4096n;
/** cache_bytes stays below 2^63: the working-set job reads it as a signed 64-bit integer (MiniatureBatchParser). */
const MAX_CACHE_BYTES = (1n << 63n) - BLOCK_BYTES;

/** One list of a batch's miniature simulations (ReferenceBatch field 16 or 17) and how its sizes may follow each other. */
export interface SimulationList {
  /** The field's name, first in every reason: miniature_simulations or host_tier_simulations. */
  field: string;
  simulations: readonly MessageView<MiniatureSimulation>[];
  /** Whether a size may come again at a strictly lower sampling_threshold (T_C) than the entry before. */
  repeats: boolean;
}

/**
 * Checks one list: at most 64 sizes; each entry with cache_bytes a positive multiple of 4096 below
 * 2^63, ascending (strictly, or with `repeats` equal at a strictly lower T_C than the entry before),
 * 0 < sampling_threshold (T_C) <= the batch's T, 1 <= references <= the batch's references,
 * read_references <= references, and one count per policy in misses (each <= references) and
 * read_misses (each <= read_references and <= the policy's misses).
 *
 * @param policies how many policies the batch names (miniature_policies' length).
 * @param threshold the batch's sampling_threshold T.
 * @param batchReferences how many references the batch holds.
 * @throws ApiError invalid_body naming the first offending entry, `<field>[i].<member>`.
 */
export function checkSimulationList(list: SimulationList, policies: number, threshold: bigint, batchReferences: bigint): void {
  let previousBytes = 0n;
  let previousThreshold = 0n;
  let sizes = 0;
  list.simulations.forEach((simulation, i) => {
    const at = `${list.field}[${i}]`;
    const cacheBytes = longToBigInt(simulation.cacheBytes);
    if (cacheBytes <= 0n || cacheBytes > MAX_CACHE_BYTES || cacheBytes % BLOCK_BYTES !== 0n) {
      reject(`${at}.cache_bytes must be a positive multiple of ${BLOCK_BYTES} below 2^63, got ${cacheBytes}`);
    }
    const sizeThreshold = longToBigInt(simulation.samplingThreshold);
    if (cacheBytes < previousBytes || (cacheBytes === previousBytes && !list.repeats)) {
      reject(`${at}.cache_bytes ${cacheBytes} does not ascend (the previous size is ${previousBytes})`);
    }
    if (cacheBytes === previousBytes && sizeThreshold >= previousThreshold) {
      reject(`${at}.cache_bytes ${cacheBytes} comes again at sampling_threshold ${sizeThreshold}, not below the previous entry's ${previousThreshold}`);
    }
    if (cacheBytes !== previousBytes && ++sizes > MAX_SIZES) {
      reject(`${list.field} holds more than ${MAX_SIZES} cache sizes`);
    }
    [previousBytes, previousThreshold] = [cacheBytes, sizeThreshold];
    if (sizeThreshold <= 0n || sizeThreshold > threshold) {
      reject(`${at}.sampling_threshold must be in 1..sampling_threshold (${threshold}), got ${sizeThreshold}`);
    }
    checkCounts(simulation, at, policies, batchReferences);
  });
}

/**
 * One entry's references, reads, misses and read misses (bounds: {@link checkSimulationList}).
 * @throws ApiError invalid_body naming the first offending member after `at`.
 */
function checkCounts(simulation: MessageView<MiniatureSimulation>, at: string, policies: number, batchReferences: bigint): void {
  const references = longToBigInt(simulation.references);
  if (references < 1n || references > batchReferences) {
    reject(`${at}.references must be in 1..${batchReferences} (the batch's references), got ${references}`);
  }
  const readReferences = longToBigInt(simulation.readReferences);
  if (readReferences > references) {
    reject(`${at}.read_references ${readReferences} is above references ${references}`);
  }
  if (simulation.misses.length !== policies) {
    reject(`${at}.misses holds ${simulation.misses.length} counts; miniature_policies holds ${policies}`);
  }
  if (simulation.readMisses.length !== policies) {
    reject(`${at}.read_misses holds ${simulation.readMisses.length} counts; miniature_policies holds ${policies}`);
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
}
