import { Direction, type Long, longToBigInt, type MessageView, type ReferenceBatch } from '@tierwise/proto';
import { MAX_REFERENCES } from '../../ingest.constants.js';
import { checkMiniatureSimulations } from './miniature-simulations.js';
import { checkReferenceSummary, type SampledReferences } from './reference-summary.js';
import { checkWorkingSetShares } from './working-set-shares.js';
import { checkBatchId, checkPseudonymousId, checkTimestamp, optionalId, reject } from './validation.js';

/** HyperLogLog precisions p the distinct-block sketch may use (2^p registers). */
const HLL_MIN_PRECISION = 4;
const HLL_MAX_PRECISION = 18;
/** Low bits of H(L) that decide SHARDS sampling; the sketch uses the 40 above them. */
const SAMPLING_BITS = 24;
/** The largest LRU anchor a batch may name, 4 KiB blocks (2^24 = 64 GiB; the agent sends 1,024 and its LruAnchor takes at most 65,535). */
const MAX_LRU_ANCHOR_BLOCKS = 2 ** 24;

/**
 * Validates a decoded tierwise.v1.ReferenceBatch (proto/tierwise/v1/reference_batch.proto):
 * batch, host and volume ids present, the cluster id when present; SHARDS parameters with P > 0 and 0 < T <= P
 * (sampling rate R = T / P, Waldspurger et al., FAST 2015); at most 100,000 references, each
 * READ or WRITE, its block hash in the sample (H mod P < T), at least one 4 KiB block long, in
 * time order; base time and last reference
 * time within 5 minutes ahead / 30 days behind now; the stream totals (see
 * {@link checkStreamTotals}); the miniature simulations (see {@link checkMiniatureSimulations}); the
 * working-set windows' shares (see {@link checkWorkingSetShares}); the references' summary in their
 * place (see {@link checkReferenceSummary}).
 *
 * @param batch the batch as protobufjs decodes it (`ReferenceBatch.decodeMessage`).
 * @param nowUnixNano the receive time, Unix epoch nanoseconds.
 * @throws ApiError invalid_body whose message names the first offending field.
 */
export function validateReferenceBatch(batch: MessageView<ReferenceBatch>, nowUnixNano: bigint): void {
  checkBatchId(batch.batchId, 'batch_id');
  checkPseudonymousId(batch.hostId, 'host_id');
  checkPseudonymousId(batch.volumeId, 'volume_id');
  optionalId(batch.clusterId, 'cluster_id');
  const modulus = longToBigInt(batch.samplingModulus);
  const threshold = longToBigInt(batch.samplingThreshold);
  if (modulus <= 0n) {
    reject(`sampling_modulus must be > 0, got ${modulus}`);
  }
  if (threshold <= 0n || threshold > modulus) {
    reject(`sampling_threshold must be in 1..sampling_modulus (${modulus}), got ${threshold}`);
  }
  const count = batch.references.length;
  if (count > MAX_REFERENCES) {
    reject(`batch holds ${count} references; at most ${MAX_REFERENCES} are accepted`);
  }
  const baseTimeUnixNano = longToBigInt(batch.baseTimeUnixNano);
  checkTimestamp(baseTimeUnixNano, nowUnixNano, 'base_time_unix_nano');
  const inSample = sampleTest(modulus, threshold);
  let previousOffsetUs: Long = { low: 0, high: 0, unsigned: true };
  batch.references.forEach((reference, i) => {
    if (reference.direction !== Direction.READ && reference.direction !== Direction.WRITE) {
      reject(`references[${i}].direction must be READ or WRITE, got ${reference.direction}`);
    }
    if (!inSample(reference.blockHash)) {
      reject(`references[${i}].block_hash ${longToBigInt(reference.blockHash)} is not in the sample (H mod P >= T for P=${modulus}, T=${threshold})`);
    }
    if (reference.lengthBlocks < 1) {
      reject(`references[${i}].length_blocks must be >= 1`);
    }
    if (compareUnsigned(reference.timeOffsetUs, previousOffsetUs) < 0) {
      reject(`references[${i}].time_offset_us ${longToBigInt(reference.timeOffsetUs)} is before the previous reference's (${longToBigInt(previousOffsetUs)}); references must be in time order`);
    }
    previousOffsetUs = reference.timeOffsetUs;
  });
  const lastReferenceUnixNano = baseTimeUnixNano + longToBigInt(previousOffsetUs) * 1000n;
  checkTimestamp(lastReferenceUnixNano, nowUnixNano, 'time of the last reference');
  const sampled: SampledReferences = checkReferenceSummary(batch, baseTimeUnixNano, nowUnixNano) ?? {
    count: BigInt(count),
    lastUnixNano: count > 0 ? lastReferenceUnixNano : undefined,
  };
  checkStreamTotals(batch, modulus, sampled.count);
  checkMiniatureSimulations(batch, threshold, sampled.count);
  checkWorkingSetShares(batch, threshold, sampled.lastUnixNano);
}

/**
 * Whether a block hash H is in the sample, H mod P < T. For a P that divides 2^32 (the agent's
 * 2^24) H mod P is the low word's, read without a bigint per reference.
 */
function sampleTest(modulus: bigint, threshold: bigint): (blockHash: Long) => boolean {
  if ((1n << 32n) % modulus === 0n) {
    const [p, t] = [Number(modulus), Number(threshold)];
    return (h) => (h.low >>> 0) % p < t;
  }
  return (h) => longToBigInt(h) % modulus < threshold;
}

/** The order of two unsigned 64-bit integers: negative, zero or positive as a < b, a = b, a > b. */
function compareUnsigned(a: Long, b: Long): number {
  return (a.high >>> 0) - (b.high >>> 0) || (a.low >>> 0) - (b.low >>> 0);
}

/**
 * The stream totals come together or not at all. With distinct_blocks_hll_precision p in 4..18:
 * P divides 2^24 (sampling and the HyperLogLog sketch use different bits of H(L)),
 * considered_references >= the references of the batch (carried or summarised), and each register update
 * (index << 8) | value has index < 2^p, 1 <= value <= 41 - p, indices ascending; the LRU anchor,
 * when there is one (lru_anchor_blocks 1..2^24), has lru_anchor_hits <= considered_references. With p = 0:
 * no considered_references, no updates and no anchor (an older agent).
 *
 * @throws ApiError invalid_body naming the first offending field.
 */
function checkStreamTotals(batch: MessageView<ReferenceBatch>, modulus: bigint, references: bigint): void {
  const p = batch.distinctBlocksHllPrecision;
  const updates = batch.distinctBlocksHllUpdates;
  const considered = longToBigInt(batch.consideredReferences);
  const anchorHits = longToBigInt(batch.lruAnchorHits);
  if (p === 0) {
    if (considered !== 0n || updates.length > 0 || batch.lruAnchorBlocks !== 0 || anchorHits !== 0n) {
      reject('considered_references, distinct_blocks_hll_updates and the LRU anchor need distinct_blocks_hll_precision (the stream totals come together)');
    }
    return;
  }
  if (p < HLL_MIN_PRECISION || p > HLL_MAX_PRECISION) {
    reject(`distinct_blocks_hll_precision must be in ${HLL_MIN_PRECISION}..${HLL_MAX_PRECISION} (or 0: none), got ${p}`);
  }
  if ((1n << BigInt(SAMPLING_BITS)) % modulus !== 0n) {
    reject(`sampling_modulus ${modulus} must divide 2^${SAMPLING_BITS} when the batch carries a distinct-block sketch`);
  }
  if (considered < references) {
    reject(`considered_references ${considered} is below the ${references} references of the batch`);
  }
  if (batch.lruAnchorBlocks === 0 && anchorHits !== 0n) {
    reject(`lru_anchor_hits ${anchorHits} without lru_anchor_blocks`);
  }
  if (batch.lruAnchorBlocks > MAX_LRU_ANCHOR_BLOCKS) {
    reject(`lru_anchor_blocks ${batch.lruAnchorBlocks} is above ${MAX_LRU_ANCHOR_BLOCKS}`);
  }
  if (anchorHits > considered) {
    reject(`lru_anchor_hits ${anchorHits} is above considered_references ${considered}`);
  }
  const maxValue = 64 - SAMPLING_BITS - p + 1;
  let previousIndex = -1;
  updates.forEach((update, i) => {
    const index = update >>> 8;
    const value = update & 0xff;
    if (index >= 2 ** p) {
      reject(`distinct_blocks_hll_updates[${i}]: register index ${index} is not below 2^${p}`);
    }
    if (value < 1 || value > maxValue) {
      reject(`distinct_blocks_hll_updates[${i}]: register ${index} value ${value} is not in 1..${maxValue}`);
    }
    if (index <= previousIndex) {
      reject(`distinct_blocks_hll_updates[${i}]: register index ${index} does not ascend`);
    }
    previousIndex = index;
  });
}
