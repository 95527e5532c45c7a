import { isSet, longToBigInt, type MessageView, type ReferenceBatch, type WindowShare } from '@tierwise/proto';
import { reject } from './validation.js';

/** The service's sliding windows, seconds (stream-jobs WindowedEstimators.SLIDING); 0 is 'all'. */
const WINDOW_SECONDS = [0, 3600, 86_400, 604_800];
/** Panes per sliding window (WindowedEstimators.PANES): a pane starts every window / 4. */
const PANES = 4n;
/** Most shares in one batch: 4 windows of a few live panes, once per threshold the sample fell through. */
const MAX_SHARES = 1024;
/** Most stack distances over a batch's shares (each a re-reference of the batch: at most ingest's references per batch, 4 windows). */
const MAX_DISTANCES = 400_000;

/**
 * Checks a batch's working set (ReferenceBatch.working_set, WorkingSetShares; docs/analytics.md
 * "Windows on the agent"), as the working-set job's WindowSharesParser does: absent passes (an
 * older agent); max_samples >= 1; the sample's 0 < T <= the batch's T; last_reference_unix_nano
 * the time of the batch's last reference when it has references; at most 1,024 shares, each of
 * window 0 ('all', at pane start 0) or 3,600, 86,400 or 604,800 s, its pane start a multiple of
 * the window / 4 (ns) at or before its first reference, its T from the sample's to the batch's,
 * in order (window, pane start, T descending) without repeats; reads at most the references; hit
 * distances strictly ascending and at most max_samples, each with a count >= 1, one count per
 * distance; 'all''s re-references at most its references (reads: its reads).
 *
 * @param threshold the batch's sampling_threshold T.
 * @param lastReferenceUnixNano the time of the batch's last reference, Unix epoch ns (when it has any).
 * @throws ApiError invalid_body naming the first offending field.
 */
export function checkWorkingSetShares(batch: MessageView<ReferenceBatch>, threshold: bigint, lastReferenceUnixNano: bigint): void {
  if (!isSet(batch, 'workingSet') || !batch.workingSet) {
    return;
  }
  const ws = batch.workingSet;
  if (ws.maxSamples < 1) {
    reject('working_set.max_samples must be >= 1');
  }
  const sampleThreshold = longToBigInt(ws.samplingThreshold);
  if (sampleThreshold <= 0n || sampleThreshold > threshold) {
    reject(`working_set.sampling_threshold must be in 1..sampling_threshold (${threshold}), got ${sampleThreshold}`);
  }
  const last = longToBigInt(ws.lastReferenceUnixNano);
  if (batch.references.length > 0 && last !== lastReferenceUnixNano) {
    reject(`working_set.last_reference_unix_nano ${last} is not the time of the batch's last reference, ${lastReferenceUnixNano}`);
  }
  if (ws.shares.length > MAX_SHARES) {
    reject(`working_set holds ${ws.shares.length} shares; at most ${MAX_SHARES} are accepted`);
  }
  let distances = 0;
  let previous: readonly [number, bigint, bigint] | undefined;
  ws.shares.forEach((share, i) => {
    const at = `working_set.shares[${i}]`;
    const key = checkPane(share, at);
    const shareThreshold = longToBigInt(share.samplingThreshold);
    if (shareThreshold < sampleThreshold || shareThreshold > threshold) {
      reject(`${at}.sampling_threshold must be in the sample's ${sampleThreshold}..the batch's ${threshold}, got ${shareThreshold}`);
    }
    const current = [key[0], key[1], shareThreshold] as const;
    if (previous && !follows(current, previous)) {
      reject(`${at} does not come after the previous share (window ascending, then pane start ascending, then sampling_threshold descending)`);
    }
    previous = current;
    const references = longToBigInt(share.references);
    const reads = longToBigInt(share.readReferences);
    if (reads > references) {
      reject(`${at}.read_references ${reads} is above references ${references}`);
    }
    distances += share.hitDistances.length + share.readHitDistances.length;
    if (distances > MAX_DISTANCES) {
      reject(`working_set holds more than ${MAX_DISTANCES} hit distances`);
    }
    const rereferences = checkDistances(share.hitDistances, share.hitCounts.map(longToBigInt), ws.maxSamples, `${at}.hit_`);
    const rereads = checkDistances(share.readHitDistances, share.readHitCounts.map(longToBigInt), ws.maxSamples, `${at}.read_hit_`);
    if (share.windowSeconds === 0 && (rereferences > references || rereads > reads)) {
      reject(`${at}: 'all' counts more re-references than references`);
    }
  });
}

/** The share's window and pane start, checked: a window of the service; 'all' at 0; a pane at a multiple of its hop, not after its first reference. */
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
  return [seconds, start];
}

function follows(current: readonly [number, bigint, bigint], previous: readonly [number, bigint, bigint]): boolean {
  if (current[0] !== previous[0]) return current[0] > previous[0];
  if (current[1] !== previous[1]) return current[1] > previous[1];
  return current[2] < previous[2];
}

/** Distances strictly ascending and at most max_samples, one count >= 1 each; returns the counts' sum. */
function checkDistances(distances: readonly number[], counts: readonly bigint[], maxSamples: number, field: string): bigint {
  if (distances.length !== counts.length) {
    reject(`${field}distances has ${distances.length} entries and ${field}counts ${counts.length}`);
  }
  let sum = 0n;
  distances.forEach((distance, k) => {
    if (distance > maxSamples || (k > 0 && distance <= distances[k - 1])) {
      reject(`${field}distances[${k}] ${distance} is above max_samples (${maxSamples}) or does not ascend`);
    }
    if (counts[k] < 1n) {
      reject(`${field}counts[${k}] must be >= 1, got ${counts[k]}`);
    }
    sum += counts[k];
  });
  return sum;
}
