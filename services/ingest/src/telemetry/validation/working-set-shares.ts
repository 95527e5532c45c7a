import { isSet, longToBigInt, type MessageView, type ReferenceBatch, type WindowShare, type WorkingSetShares } from '@tierwise/proto';
import { reject } from './validation.js';

/** The service's sliding windows, seconds (stream-jobs WindowedEstimators.SLIDING); 0 is 'all'. */
const WINDOW_SECONDS = [0, 3600, 86_400, 604_800];
/** Panes per sliding window (WindowedEstimators.PANES): a pane starts every window / 4. */
const PANES = 4n;
/** Most shares in one batch: 'all' and at most 5 live panes of each of the 3 sliding windows, with room. */
const MAX_SHARES = 64;
/** The largest scaled-distance bucket (stream-jobs DistanceHistogram.MAX_BUCKET: 64 + (62 - 6) x 64 + 63). */
const MAX_BUCKET = 3711;

/**
 * Checks a batch's working sets (ReferenceBatch.working_set and host_tier_working_set,
 * WorkingSetShares; docs/analytics.md "Windows on the agent"), as the working-set job's
 * WindowSharesParser does: absent passes (an older agent); max_samples >= 1; the sample's 0 < T <=
 * the batch's T; last_reference_unix_nano the time of the batch's last reference when it has
 * references (the host's tier's: at or after it, on the tier's clock); at most 64 shares, each of
 * window 0 ('all', at pane start 0) or 3,600, 86,400 or 604,800 s, its pane start a multiple of
 * the window / 4 (ns) at or before its first reference, in order (window, pane start) without
 * repeats; reads at most the references; weights finite and non-negative, the reads' and the first
 * references' at most the references' (first_weight 0 on a sliding window's pane); hit buckets
 * strictly ascending up to 3,711, one positive finite weight each.
 *
 * @param threshold the batch's sampling_threshold T.
 * @param lastReferenceUnixNano the time of the batch's last sampled reference (carried or
 *   summarised), Unix epoch ns; undefined when it has none.
 * @throws ApiError invalid_body naming the first offending field.
 */
export function checkWorkingSetShares(batch: MessageView<ReferenceBatch>, threshold: bigint, lastReferenceUnixNano: bigint | undefined): void {
  const hasReferences = lastReferenceUnixNano !== undefined;
  if (isSet(batch, 'workingSet') && batch.workingSet) {
    checkShares(batch.workingSet, 'working_set', threshold, (last) => !hasReferences || last === lastReferenceUnixNano, `the time of the batch's last reference, ${lastReferenceUnixNano}`);
  }
  if (isSet(batch, 'hostTierWorkingSet') && batch.hostTierWorkingSet) {
    checkShares(batch.hostTierWorkingSet, 'host_tier_working_set', threshold, (last) => !hasReferences || last >= (lastReferenceUnixNano ?? 0n), `at or after the batch's last reference, ${lastReferenceUnixNano}`);
  }
}

/** One WorkingSetShares of the batch, at field `field`; `lastFits` checks its last reference's time, `lastRule` says what it must be. */
function checkShares(ws: MessageView<WorkingSetShares>, field: string, threshold: bigint, lastFits: (last: bigint) => boolean, lastRule: string): void {
  if (ws.maxSamples < 1) {
    reject(`${field}.max_samples must be >= 1`);
  }
  const sampleThreshold = longToBigInt(ws.samplingThreshold);
  if (sampleThreshold <= 0n || sampleThreshold > threshold) {
    reject(`${field}.sampling_threshold must be in 1..sampling_threshold (${threshold}), got ${sampleThreshold}`);
  }
  const last = longToBigInt(ws.lastReferenceUnixNano);
  if (!lastFits(last)) {
    reject(`${field}.last_reference_unix_nano ${last} is not ${lastRule}`);
  }
  if (ws.shares.length > MAX_SHARES) {
    reject(`${field} holds ${ws.shares.length} shares; at most ${MAX_SHARES} are accepted`);
  }
  let previous: readonly [number, bigint] | undefined;
  ws.shares.forEach((share, i) => {
    const at = `${field}.shares[${i}]`;
    const key = checkPane(share, at);
    if (previous && !(key[0] > previous[0] || (key[0] === previous[0] && key[1] > previous[1]))) {
      reject(`${at} does not come after the previous share (window ascending, then pane start ascending)`);
    }
    previous = key;
    const references = longToBigInt(share.references);
    const reads = longToBigInt(share.readReferences);
    if (reads > references) {
      reject(`${at}.read_references ${reads} is above references ${references}`);
    }
    for (const [name, weight] of [['weight', share.weight], ['read_weight', share.readWeight], ['first_weight', share.firstWeight]] as const) {
      if (!Number.isFinite(weight) || weight < 0) {
        reject(`${at}.${name} must be a finite number >= 0, got ${weight}`);
      }
    }
    if (share.readWeight > share.weight || share.firstWeight > share.weight) {
      reject(`${at}: read_weight ${share.readWeight} or first_weight ${share.firstWeight} is above weight ${share.weight}`);
    }
    checkBuckets(share.hitBuckets, share.hitWeights, `${at}.hit_`);
    checkBuckets(share.readHitBuckets, share.readHitWeights, `${at}.read_hit_`);
  });
}

/** The share's window and pane start, checked: a window of the service; 'all' at 0; a pane at a multiple of its hop, not after its first reference, without a first weight. */
function checkPane(share: MessageView<WindowShare>, at: string): readonly [number, bigint] {
  const seconds = share.windowSeconds;
  const start = longToBigInt(share.paneStartUnixNano);
  if (!WINDOW_SECONDS.includes(seconds)) {
    reject(`${at}.window_seconds must be one of ${WINDOW_SECONDS.join(', ')}, got ${seconds}`);
  }
  if (seconds === 0) {
    if (start !== 0n) {
      reject(`${at}.pane_start_unix_nano must be 0 for 'all' (window_seconds 0), got ${start}`);
    }
    return [seconds, start];
  }
  const hop = (BigInt(seconds) * 1_000_000_000n) / PANES;
  if (start % hop !== 0n || longToBigInt(share.paneFirstUnixNano) < start) {
    reject(`${at}.pane_start_unix_nano ${start} must be a multiple of the window's ${hop} ns at or before pane_first_unix_nano ${longToBigInt(share.paneFirstUnixNano)}`);
  }
  if (share.firstWeight !== 0) {
    reject(`${at}.first_weight must be 0 on a sliding window's pane, got ${share.firstWeight}`);
  }
  return [seconds, start];
}

/** Buckets strictly ascending up to {@link MAX_BUCKET}, one positive finite weight each. */
function checkBuckets(buckets: readonly number[], weights: readonly number[], field: string): void {
  if (buckets.length !== weights.length) {
    reject(`${field}buckets has ${buckets.length} entries and ${field}weights ${weights.length}`);
  }
  buckets.forEach((bucket, k) => {
    if (bucket > MAX_BUCKET || (k > 0 && bucket <= buckets[k - 1])) {
      reject(`${field}buckets[${k}] ${bucket} is above ${MAX_BUCKET} or does not ascend`);
    }
    if (!Number.isFinite(weights[k]) || weights[k] <= 0) {
      reject(`${field}weights[${k}] must be a finite number > 0, got ${weights[k]}`);
    }
  });
}
