import { ReferenceBatch, type WindowShare, type WorkingSetShares } from '@tierwise/proto';
import { describe, expect, it } from 'vitest';
import { validate } from '../../../test/support/miniature-fixtures.js';
import { referenceBatch, testVolume } from '../../../test/support/telemetry-fixtures.js';

const HOP_1H = 900_000_000_000n;

/** An agent batch of 3 references (T = 2^16) with its working set: 'all' and the 1 h pane at T = 2^15, then the pane at 2^14 (the sample filled). */
function batch(change: (ws: WorkingSetShares) => WorkingSetShares = (ws) => ws): ReferenceBatch {
  const b = ReferenceBatch.decode(referenceBatch(testVolume(), 3));
  const last = b.baseTimeUnixNano + b.references[b.references.length - 1].timeOffsetUs * 1000n;
  const all: WindowShare = {
    windowSeconds: 0,
    paneStartUnixNano: 0n,
    paneFirstUnixNano: b.baseTimeUnixNano,
    samplingThreshold: 1n << 15n,
    references: 3n,
    readReferences: 2n,
    hitDistances: [0, 4],
    hitCounts: [1n, 1n],
    readHitDistances: [4],
    readHitCounts: [1n],
    blockRepeats: 2n,
    readRepeats: 1n,
    writeRepeats: 0n,
  };
  const pane = { ...all, windowSeconds: 3600, paneStartUnixNano: (b.baseTimeUnixNano / HOP_1H) * HOP_1H };
  const ws: WorkingSetShares = {
    maxSamples: 8192,
    samplingThreshold: 1n << 14n,
    lastReferenceUnixNano: last,
    sampleId: 42n,
    shares: [all, pane, { ...pane, samplingThreshold: 1n << 14n, hitDistances: [], hitCounts: [], readHitDistances: [], readHitCounts: [] }],
  };
  return { ...b, workingSet: change(ws) };
}

/** The batch with share `i` changed. */
function share(i: number, change: Partial<WindowShare>) {
  return batch((ws) => ({ ...ws, shares: ws.shares.map((s, k) => (k === i ? { ...s, ...change } : s)) }));
}

describe('validateReferenceBatch: the working-set windows\' shares', () => {
  it('accepts an agent batch with them and without them (older agents)', () => {
    expect(validate(batch())).not.toThrow();
    expect(validate({ ...batch(), workingSet: undefined })).not.toThrow();
  });

  it('refuses a sample outside the batch\'s, or a last reference that is not the batch\'s', () => {
    expect(validate(batch((ws) => ({ ...ws, maxSamples: 0 })))).toThrow('working_set.max_samples must be >= 1');
    expect(validate(batch((ws) => ({ ...ws, samplingThreshold: (1n << 16n) + 1n })))).toThrow(
      'working_set.sampling_threshold must be in 1..sampling_threshold (65536), got 65537',
    );
    expect(validate(batch((ws) => ({ ...ws, lastReferenceUnixNano: 1n })))).toThrow(
      /working_set.last_reference_unix_nano 1 is not the time of the batch's last reference/,
    );
  });

  it('refuses an unknown window, a misaligned pane, a share out of order or at a threshold outside the sample\'s', () => {
    expect(validate(share(1, { windowSeconds: 7200 }))).toThrow('working_set.shares[1].window_seconds must be one of 0, 3600, 86400, 604800, got 7200');
    expect(validate(share(0, { paneStartUnixNano: HOP_1H }))).toThrow("working_set.shares[0].pane_start_unix_nano must be 0 for 'all'");
    const start = batch().workingSet!.shares[1].paneStartUnixNano;
    expect(validate(share(1, { paneStartUnixNano: start + 1n }))).toThrow(/shares\[1\].pane_start_unix_nano .* must be a multiple of the window's 900000000000 ns/);
    expect(validate(share(2, { samplingThreshold: 1n << 16n }))).toThrow(
      'working_set.shares[2] does not come after the previous share (window ascending, then pane start ascending, then sampling_threshold descending)',
    );
    expect(validate(share(2, { samplingThreshold: 1n << 13n }))).toThrow(
      'working_set.shares[2].sampling_threshold must be in the sample\'s 16384..the batch\'s 65536, got 8192',
    );
  });

  it('refuses counts that contradict each other', () => {
    expect(validate(share(1, { readReferences: 4n }))).toThrow('working_set.shares[1].read_references 4 is above references 3');
    expect(validate(share(1, { hitDistances: [4, 0] }))).toThrow('working_set.shares[1].hit_distances[1] 0 is above max_samples (8192) or does not ascend');
    expect(validate(share(1, { hitDistances: [0, 8193] }))).toThrow('working_set.shares[1].hit_distances[1] 8193 is above max_samples (8192)');
    expect(validate(share(1, { hitCounts: [1n] }))).toThrow('working_set.shares[1].hit_distances has 2 entries and working_set.shares[1].hit_counts 1');
    expect(validate(share(1, { readHitCounts: [0n] }))).toThrow('working_set.shares[1].read_hit_counts[0] must be >= 1, got 0');
    expect(validate(share(0, { hitCounts: [3n, 1n] }))).toThrow("working_set.shares[0]: 'all' counts more re-references than references");
  });
});
