import { ApiError, ErrorCode, PSEUDONYMOUS_ID_PATTERN } from '@tierwise/common';
import { MAX_AGE_NANOS, MAX_FUTURE_SKEW_NANOS } from '../../ingest.constants.js';

/** Agent batch ids: a UUID in practice; 1-128 characters of [A-Za-z0-9_.:-] (no '#', used for splits). */
const BATCH_ID = /^[\w.:-]{1,128}$/;

/** Throws the 400 `invalid_body` answer with `reason`. */
export function reject(reason: string): never {
  throw new ApiError(ErrorCode.InvalidBody, reason);
}

/**
 * Runs `check`, naming `where` (e.g. `batches[3]`) first in the reason of the invalid_body it
 * throws; other errors pass unchanged.
 */
export function within(where: string, check: () => void): void {
  try {
    check();
  } catch (error) {
    if (error instanceof ApiError && error.code === ErrorCode.InvalidBody) {
      reject(`${where}: ${error.message}`);
    }
    throw error;
  }
}

/**
 * Checks a pseudonymous id (host.id, tierwise.volume.id, ReferenceBatch.host_id/volume_id).
 * @throws ApiError invalid_body naming `where` when `id` is not 8-64 lowercase hex characters.
 */
export function checkPseudonymousId(id: string | undefined, where: string): string {
  if (id === undefined || id === '') {
    reject(`${where} is missing`);
  }
  if (!PSEUDONYMOUS_ID_PATTERN.test(id)) {
    reject(`${where} must be 8-64 lowercase hex characters, got ${JSON.stringify(id.slice(0, 80))}`);
  }
  return id;
}

/**
 * An optional pseudonymous id (the cluster id): null when absent or empty, else checked as
 * {@link checkPseudonymousId}.
 * @throws ApiError invalid_body naming `where` when it is not 8-64 lowercase hex characters.
 */
export function optionalId(id: string | undefined, where: string): string | null {
  return id === undefined || id === '' ? null : checkPseudonymousId(id, where);
}

/**
 * Checks an agent batch id.
 * @throws ApiError invalid_body naming `where` when it is missing or malformed.
 */
export function checkBatchId(batchId: string | undefined, where: string): string {
  if (batchId === undefined || batchId === '') {
    reject(`${where} is missing`);
  }
  if (!BATCH_ID.test(batchId)) {
    reject(`${where} must be 1-128 characters of A-Z a-z 0-9 _ . : -, got ${JSON.stringify(batchId.slice(0, 80))}`);
  }
  return batchId;
}

/**
 * Checks that a timestamp is sane: not more than 5 minutes ahead of `nowUnixNano`, not more
 * than 30 days behind it (see MAX_FUTURE_SKEW_NANOS, MAX_AGE_NANOS).
 * @throws ApiError invalid_body naming `where` and the timestamp's distance from now.
 */
export function checkTimestamp(unixNano: bigint, nowUnixNano: bigint, where: string): void {
  if (unixNano > nowUnixNano + MAX_FUTURE_SKEW_NANOS) {
    reject(`${where} ${unixNano} is ${secondsApart(unixNano, nowUnixNano)} s in the future (at most 300 s allowed)`);
  }
  if (unixNano < nowUnixNano - MAX_AGE_NANOS) {
    reject(`${where} ${unixNano} is ${secondsApart(nowUnixNano, unixNano)} s old (at most 30 days allowed)`);
  }
}

function secondsApart(later: bigint, earlier: bigint): string {
  return ((later - earlier) / 1_000_000_000n).toString();
}
