import { Direction, type ReferenceBatch } from '@tierwise/proto';
import { MAX_REFERENCES } from '../ingest.constants.js';
import { checkBatchId, checkPseudonymousId, checkTimestamp, reject } from './validation.js';

/**
 * Validates a decoded tierwise.v1.ReferenceBatch (proto/tierwise/v1/reference_batch.proto):
 * batch, host and volume ids present; SHARDS parameters with P > 0 and 0 < T <= P
 * (sampling rate R = T / P, Waldspurger et al., FAST 2015); at most 100,000 references, each
 * READ or WRITE, at least one 4 KiB block long, in time order; base time and last reference
 * time within 5 minutes ahead / 30 days behind now.
 *
 * @param batch the decoded batch.
 * @param nowUnixNano the receive time, Unix epoch nanoseconds.
 * @throws ApiError invalid_body whose message names the first offending field.
 */
export function validateReferenceBatch(batch: ReferenceBatch, nowUnixNano: bigint): void {
  checkBatchId(batch.batchId, 'batch_id');
  checkPseudonymousId(batch.hostId, 'host_id');
  checkPseudonymousId(batch.volumeId, 'volume_id');
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
    if (reference.lengthBlocks < 1) {
      reject(`references[${i}].length_blocks must be >= 1`);
    }
    if (reference.timeOffsetUs < previousOffsetUs) {
      reject(`references[${i}].time_offset_us ${reference.timeOffsetUs} is before the previous reference's (${previousOffsetUs}); references must be in time order`);
    }
    previousOffsetUs = reference.timeOffsetUs;
  });
  checkTimestamp(batch.baseTimeUnixNano + previousOffsetUs * 1000n, nowUnixNano, 'time of the last reference');
}
