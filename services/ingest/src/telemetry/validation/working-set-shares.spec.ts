import { ReferenceBatch, type WindowShare, type WorkingSetShares } from '@tierwise/proto';
import { describe, expect, it } from 'vitest';
import { validate } from '../../../test/support/miniature-fixtures.js';
import { referenceBatch, testVolume } from '../../../test/support/telemetry-fixtures.js';

const HOP_1H = 900_000_000_000n;

/** An agent batch of 3 references (T = 2^16 of P = 2^24) with its working set: 'all' and the 1 h pane, counted at T = 2^15 (1 / R = 512). */
function batch(change: (ws: WorkingSetShares) => WorkingSetShares = (ws) => ws): ReferenceBatch {
  const b = ReferenceBatch.decode(referenceBatch(testVolume(), 3));
  const last = b.baseTimeUnixNano + b.references[b.references.length - 1].timeOffsetUs * 1000n;
  const all: WindowShare = {
    windowSeconds: 0,
    paneStartUnixNano: 0n,
    paneFirstUnixNano: b.baseTimeUnixNano,
    references: 3n,
    readReferences: 2n,
    weight: 1536,
    readWeight: 1024,
    firstWeight: 512,
    hitBuckets: [0, 2048],
    hitWeights: [512, 512],
    readHitBuckets: [2048],
    readHitWeights: [512],
    blockRepeats: 2n,
    readRepeats: 1n,
    writeRepeats: 0n,
  };
  const pane = { ...all, windowSeconds: 3600, paneStartUnixNano: (b.baseTimeUnixNano / HOP_1H) * HOP_1H, firstWeight: 0 };
  const ws: WorkingSetShares = {
    maxSamples: 8192,
    samplingThreshold: 1n << 15n,
    lastReferenceUnixNano: last,
    sampleId: 42n,
    shares: [all, pane],
  };
  return { ...b, workingSet: change(ws) };
}

/** The batch with share `i` changed. */
function share(i: number, change: Partial<WindowShare>) {
  return batch((ws) => ({ ...ws, shares: ws.shares.map((s, k) => (k === i ? { ...s, ...change } : s)) }));
}

describe("validateReferenceBatch: the working-set windows' shares", () => {
  it('accepts an agent batch with them and without them (older agents)', () => {
    expect(validate(batch())).not.toThrow();
    expect(validate({ ...batch(), workingSet: undefined })).not.toThrow();
  });

  it("refuses a sample outside the batch's, or a last reference that is not the batch's", () => {
    expect(validate(batch((ws) => ({ ...ws, maxSamples: 0 })))).toThrow('working_set.max_samples must be >= 1');
    expect(validate(batch((ws) => ({ ...ws, samplingThreshold: (1n << 16n) + 1n })))).toThrow(
      'working_set.sampling_threshold must be in 1..sampling_threshold (65536), got 65537',
    );
    expect(validate(batch((ws) => ({ ...ws, lastReferenceUnixNano: 1n })))).toThrow(
      /working_set.last_reference_unix_nano 1 is not the time of the batch's last reference/,
    );
  });

  it('refuses an unknown window, a misaligned pane, a share out of order, too many shares', () => {
    expect(validate(share(1, { windowSeconds: 7200 }))).toThrow('working_set.shares[1].window_seconds must be one of 0, 3600, 86400, 604800, got 7200');
    expect(validate(share(0, { paneStartUnixNano: HOP_1H }))).toThrow("working_set.shares[0].pane_start_unix_nano must be 0 for 'all'");
    const start = batch().workingSet!.shares[1].paneStartUnixNano;
    expect(validate(share(1, { paneStartUnixNano: start + 1n }))).toThrow(/shares\[1\].pane_start_unix_nano .* must be a multiple of the window's 900000000000 ns/);
    expect(validate(share(1, { firstWeight: 1 }))).toThrow("working_set.shares[1].first_weight must be 0 on a sliding window's pane, got 1");
    expect(validate(batch((ws) => ({ ...ws, shares: [ws.shares[0], ws.shares[1], ws.shares[1]] })))).toThrow(
      'working_set.shares[2] does not come after the previous share (window ascending, then pane start ascending)',
    );
    expect(validate(batch((ws) => ({ ...ws, shares: new Array(65).fill(ws.shares[0]) })))).toThrow('working_set holds 65 shares; at most 64 are accepted');
  });

  it('refuses counts and weights that contradict each other', () => {
    expect(validate(share(1, { readReferences: 4n }))).toThrow('working_set.shares[1].read_references 4 is above references 3');
    expect(validate(share(0, { weight: Number.NaN }))).toThrow('working_set.shares[0].weight must be a finite number >= 0, got NaN');
    expect(validate(share(0, { readWeight: 2048 }))).toThrow('working_set.shares[0]: read_weight 2048 or first_weight 512 is above weight 1536');
    expect(validate(share(1, { hitBuckets: [2048, 0] }))).toThrow('working_set.shares[1].hit_buckets[1] 0 is above 3711 or does not ascend');
    expect(validate(share(1, { hitBuckets: [0, 3712] }))).toThrow('working_set.shares[1].hit_buckets[1] 3712 is above 3711');
    expect(validate(share(1, { hitWeights: [512] }))).toThrow('working_set.shares[1].hit_buckets has 2 entries and working_set.shares[1].hit_weights 1');
    expect(validate(share(1, { readHitWeights: [0] }))).toThrow('working_set.shares[1].read_hit_weights[0] must be a finite number > 0, got 0');
  });

  it("checks the host's tier's shares by the same rules, their last reference on the tier's clock", () => {
    const b = batch();
    const ws = b.workingSet!;
    expect(validate({ ...b, hostTierWorkingSet: { ...ws, lastReferenceUnixNano: ws.lastReferenceUnixNano + 5n } })).not.toThrow();
    expect(validate({ ...b, hostTierWorkingSet: { ...ws, lastReferenceUnixNano: ws.lastReferenceUnixNano - 1n } })).toThrow(
      /host_tier_working_set.last_reference_unix_nano \d+ is not at or after the batch's last reference/,
    );
    expect(validate({ ...b, hostTierWorkingSet: { ...ws, shares: [ws.shares[1], ws.shares[0]] } })).toThrow(
      'host_tier_working_set.shares[1] does not come after the previous share',
    );
  });
});
