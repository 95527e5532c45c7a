import { Direction, isSet, longToBigInt, type MessageView, type ReferenceBatch } from '@tierwise/proto';
import { checkTimestamp, reject } from './validation.js';

/** Most (direction, I/O length) pairs in one summary: every length a 10,000-reference batch could span, with room. */
const MAX_IO_LENGTHS = 4096;

/** What a batch's sampled references are: their count and the time of the last one (Unix epoch ns; undefined when there is none). */
export interface SampledReferences {
  count: bigint;
  lastUnixNano: bigint | undefined;
}

/**
 * Checks a batch's reference summary (ReferenceBatch.reference_summary, ReferenceSummary;
 * docs/fleet-scale.md "What is left", item 1), as the working-set job's ReferenceBatchParser
 * does: absent passes; else the batch carries no references, its working set and miniature
 * policies (the agent ran what the service would run over them), references >= 1, base_time <=
 * first <= last reference time (the last within ingest's time bounds), at most 4,096 io_lengths,
 * each READ or WRITE with length_blocks >= 1 and references >= 1, by direction (read first) then
 * length ascending without repeats, adding up to references.
 *
 * @param baseTimeUnixNano the batch's base_time_unix_nano.
 * @param nowUnixNano the receive time, Unix epoch ns.
 * @returns the summarised references, or undefined when the batch has no summary.
 * @throws ApiError invalid_body naming the first offending field.
 */
export function checkReferenceSummary(batch: MessageView<ReferenceBatch>, baseTimeUnixNano: bigint, nowUnixNano: bigint): SampledReferences | undefined {
  if (!isSet(batch, 'referenceSummary') || !batch.referenceSummary) {
    return undefined;
  }
  const summary = batch.referenceSummary;
  if (batch.references.length > 0) {
    reject('a batch carries references or reference_summary, not both');
  }
  if (!isSet(batch, 'workingSet') || !batch.workingSet || batch.miniaturePolicies.length === 0) {
    reject('reference_summary needs working_set and miniature_policies: the service runs nothing over summarised references');
  }
  const count = longToBigInt(summary.references);
  if (count < 1n) {
    reject('reference_summary.references must be >= 1');
  }
  const first = longToBigInt(summary.firstReferenceUnixNano);
  const last = longToBigInt(summary.lastReferenceUnixNano);
  if (first < baseTimeUnixNano || last < first) {
    reject(`reference_summary: base_time_unix_nano ${baseTimeUnixNano} <= first_reference_unix_nano ${first} <= last_reference_unix_nano ${last} does not hold`);
  }
  checkTimestamp(last, nowUnixNano, 'reference_summary.last_reference_unix_nano');
  if (summary.ioLengths.length > MAX_IO_LENGTHS) {
    reject(`reference_summary holds ${summary.ioLengths.length} io_lengths; at most ${MAX_IO_LENGTHS} are accepted`);
  }
  let sum = 0n;
  let previous: readonly [number, number] | undefined;
  summary.ioLengths.forEach((l, i) => {
    const at = `reference_summary.io_lengths[${i}]`;
    if (l.direction !== Direction.READ && l.direction !== Direction.WRITE) {
      reject(`${at}.direction must be READ or WRITE, got ${l.direction}`);
    }
    if (l.lengthBlocks < 1) {
      reject(`${at}.length_blocks must be >= 1`);
    }
    const references = longToBigInt(l.references);
    if (references < 1n) {
      reject(`${at}.references must be >= 1`);
    }
    if (previous && !(l.direction > previous[0] || (l.direction === previous[0] && l.lengthBlocks > previous[1]))) {
      reject(`${at} does not come after the previous one (direction, read first, then length_blocks, ascending)`);
    }
    previous = [l.direction, l.lengthBlocks];
    sum += references;
  });
  if (sum !== count) {
    reject(`reference_summary.io_lengths add up to ${sum} references, not ${count}`);
  }
  return { count, lastUnixNano: last };
}
