import { Direction, type ReferenceBatch } from '@tierwise/proto';
import { MAX_REFERENCES } from '../../ingest.constants.js';
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
 * {@link checkStreamTotals}).
 *
 * @param batch the decoded batch.
 * @param nowUnixNano the receive time, Unix epoch nanoseconds.
 * @throws ApiError invalid_body whose message names the first offending field.
 */
export function validateReferenceBatch(batch: ReferenceBatch, nowUnixNano: bigint): void {
  checkBatchId(batch.batchId, 'batch_id');
  checkPseudonymousId(batch.hostId, 'host_id');
  checkPseudonymousId(batch.volumeId, 'volume_id');
  optionalId(batch.clusterId, 'cluster_id');
  if (batch.samplingModulus <= 0n) {
    reject(`sampling_modulus must be > 0, got ${batch.samplingModulus}`);
  }
  if (batch.samplingThreshold <= 0n || batch.samplingThreshold > batch.samplingModulus) {
    reject(`sampling_threshold must be in 1..sampling_modulus (${batch.samplingModulus}), got ${batch.samplingThreshold}`);
  }
  const count = batch.references.length;
  if (count > MAX_REFERENCES) {
    reject(`batch holds ${count} references; at most ${MAX_REFERENCES} are accepted`);
  }
  checkTimestamp(batch.baseTimeUnixNano, nowUnixNano, 'base_time_unix_nano');
  let previousOffsetUs = 0n;
  batch.references.forEach((reference, i) => {
    if (reference.direction !== Direction.READ && reference.direction !== Direction.WRITE) {
      reject(`references[${i}].direction must be READ or WRITE, got ${reference.direction}`);
    }
    if (reference.blockHash % batch.samplingModulus >= batch.samplingThreshold) {
      reject(`references[${i}].block_hash ${reference.blockHash} is not in the sample (H mod P >= T for P=${batch.samplingModulus}, T=${batch.samplingThreshold})`);
    }
    if (reference.lengthBlocks < 1) {
      reject(`references[${i}].length_blocks must be >= 1`);
    }
    if (reference.timeOffsetUs < previousOffsetUs) {
      reject(`references[${i}].time_offset_us ${reference.timeOffsetUs} is before the previous reference's (${previousOffsetUs}); references must be in time order`);
    }
    previousOffsetUs = reference.timeOffsetUs;
  });
  checkTimestamp(batch.baseTimeUnixNano + previousOffsetUs * 1000n, nowUnixNano, 'time of the last reference');
  checkStreamTotals(batch);
}

/**
 * The stream totals come together or not at all. With distinct_blocks_hll_precision p in 4..18:
 * P divides 2^24 (sampling and the HyperLogLog sketch use different bits of H(L)),
 * considered_references >= the references of the batch, and each register update
 * (index << 8) | value has index < 2^p, 1 <= value <= 41 - p, indices ascending; the LRU anchor,
 * when there is one (lru_anchor_blocks 1..2^24), has lru_anchor_hits <= considered_references. With p = 0:
 * no considered_references, no updates and no anchor (an older agent).
 *
 * @throws ApiError invalid_body naming the first offending field.
 */
function checkStreamTotals(batch: ReferenceBatch): void {
  const p = batch.distinctBlocksHllPrecision;
  const updates = batch.distinctBlocksHllUpdates;
  if (p === 0) {
    if (batch.consideredReferences !== 0n || updates.length > 0 || batch.lruAnchorBlocks !== 0 || batch.lruAnchorHits !== 0n) {
      reject('considered_references, distinct_blocks_hll_updates and the LRU anchor need distinct_blocks_hll_precision (the stream totals come together)');
    }
    return;
  }
  if (p < HLL_MIN_PRECISION || p > HLL_MAX_PRECISION) {
    reject(`distinct_blocks_hll_precision must be in ${HLL_MIN_PRECISION}..${HLL_MAX_PRECISION} (or 0: none), got ${p}`);
  }
  if ((1n << BigInt(SAMPLING_BITS)) % batch.samplingModulus !== 0n) {
    reject(`sampling_modulus ${batch.samplingModulus} must divide 2^${SAMPLING_BITS} when the batch carries a distinct-block sketch`);
  }
  if (batch.consideredReferences < BigInt(batch.references.length)) {
    reject(`considered_references ${batch.consideredReferences} is below the ${batch.references.length} references of the batch`);
  }
  if (batch.lruAnchorBlocks === 0 && batch.lruAnchorHits !== 0n) {
    reject(`lru_anchor_hits ${batch.lruAnchorHits} without lru_anchor_blocks`);
  }
  if (batch.lruAnchorBlocks > MAX_LRU_ANCHOR_BLOCKS) {
    reject(`lru_anchor_blocks ${batch.lruAnchorBlocks} is above ${MAX_LRU_ANCHOR_BLOCKS}`);
  }
  if (batch.lruAnchorHits > batch.consideredReferences) {
    reject(`lru_anchor_hits ${batch.lruAnchorHits} is above considered_references ${batch.consideredReferences}`);
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
