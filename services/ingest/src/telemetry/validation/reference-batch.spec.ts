import { Direction, type MessageInput, ReferenceBatch } from '@tierwise/proto';
import { describe, expect, it } from 'vitest';
import { referenceBatch, testVolume } from '../../../test/support/telemetry-fixtures.js';
import { validateReferenceBatch } from './reference-batch.js';

const NOW = BigInt(Date.now()) * 1_000_000n + 1_000_000_000n;

function decoded(count = 3) {
  return ReferenceBatch.decode(referenceBatch(testVolume(), count));
}

/** What ingest validates: the batch's bytes as protobufjs decodes them. */
function view(batch: MessageInput<ReferenceBatch>) {
  return ReferenceBatch.decodeMessage(ReferenceBatch.encode(batch));
}

describe('validateReferenceBatch', () => {
  it('accepts an agent batch', () => {
    expect(() => validateReferenceBatch(view(decoded()), NOW)).not.toThrow();
  });

  it('requires the batch, host and volume ids', () => {
    expect(() => validateReferenceBatch(view({ ...decoded(), batchId: '' }), NOW)).toThrow('batch_id is missing');
    expect(() => validateReferenceBatch(view({ ...decoded(), volumeId: '' }), NOW)).toThrow('volume_id is missing');
    expect(() => validateReferenceBatch(view({ ...decoded(), hostId: 'esx-07' }), NOW)).toThrow(/host_id must be 8-64 lowercase hex/);
  });

  it('accepts no cluster id or a pseudonymous one, never a cluster name', () => {
    expect(() => validateReferenceBatch(view({ ...decoded(), clusterId: '' }), NOW)).not.toThrow();
    expect(() => validateReferenceBatch(view({ ...decoded(), clusterId: '0123456789abcdef' }), NOW)).not.toThrow();
    expect(() => validateReferenceBatch(view({ ...decoded(), clusterId: 'prod-cluster-a' }), NOW)).toThrow(/cluster_id must be 8-64 lowercase hex/);
  });

  it('requires P > 0 and 0 < T <= P (SHARDS rate T/P)', () => {
    expect(() => validateReferenceBatch(view({ ...decoded(), samplingModulus: 0n }), NOW)).toThrow('sampling_modulus must be > 0, got 0');
    expect(() => validateReferenceBatch(view({ ...decoded(), samplingModulus: 100n, samplingThreshold: 101n }), NOW)).toThrow(
      'sampling_threshold must be in 1..sampling_modulus (100), got 101',
    );
  });

  it('bounds the batch at 100,000 references', () => {
    const batch = decoded(1);
    const tooMany = { ...batch, references: new Array(100_001).fill(batch.references[0]) };
    expect(() => validateReferenceBatch(view(tooMany), NOW)).toThrow('batch holds 100001 references; at most 100000');
  });

  it('accepts a batch of an older agent, without stream totals', () => {
    const batch = {
      ...decoded(),
      consideredReferences: 0n,
      distinctBlocksHllPrecision: 0,
      distinctBlocksHllUpdates: [],
      lruAnchorHits: 0n,
      lruAnchorBlocks: 0,
    };
    expect(() => validateReferenceBatch(view(batch), NOW)).not.toThrow();
  });

  it('checks the stream totals: together, N >= references, HyperLogLog registers within p', () => {
    const batch = decoded();
    expect(() => validateReferenceBatch(view({ ...batch, distinctBlocksHllPrecision: 0 }), NOW)).toThrow(
      'considered_references, distinct_blocks_hll_updates and the LRU anchor need distinct_blocks_hll_precision',
    );
    expect(() => validateReferenceBatch(view({ ...batch, distinctBlocksHllPrecision: 19 }), NOW)).toThrow(
      'distinct_blocks_hll_precision must be in 4..18 (or 0: none), got 19',
    );
    expect(() => validateReferenceBatch(view({ ...batch, samplingModulus: 100n, samplingThreshold: 100n }), NOW)).toThrow(
      'sampling_modulus 100 must divide 2^24',
    );
    expect(() => validateReferenceBatch(view({ ...batch, consideredReferences: 2n }), NOW)).toThrow(
      'considered_references 2 is below the 3 references of the batch',
    );
    expect(() => validateReferenceBatch(view({ ...batch, distinctBlocksHllUpdates: [(1 << 16) << 8 | 1] }), NOW)).toThrow(
      'distinct_blocks_hll_updates[0]: register index 65536 is not below 2^16',
    );
    expect(() => validateReferenceBatch(view({ ...batch, distinctBlocksHllUpdates: [(5 << 8) | 26] }), NOW)).toThrow(
      'distinct_blocks_hll_updates[0]: register 5 value 26 is not in 1..25',
    );
    expect(() => validateReferenceBatch(view({ ...batch, distinctBlocksHllUpdates: [(5 << 8) | 1, (5 << 8) | 2] }), NOW)).toThrow(
      'distinct_blocks_hll_updates[1]: register index 5 does not ascend',
    );
  });

  it('checks the LRU anchor: with the stream totals, hits <= N, a bounded size', () => {
    const batch = decoded();
    expect(batch.lruAnchorBlocks).toBe(1024);
    expect(() => validateReferenceBatch(view(batch), NOW)).not.toThrow();
    expect(() => validateReferenceBatch(view({ ...batch, lruAnchorHits: batch.consideredReferences + 1n }), NOW)).toThrow(
      `lru_anchor_hits ${batch.consideredReferences + 1n} is above considered_references ${batch.consideredReferences}`,
    );
    expect(() => validateReferenceBatch(view({ ...batch, lruAnchorBlocks: 0 }), NOW)).toThrow('without lru_anchor_blocks');
    expect(() => validateReferenceBatch(view({ ...batch, lruAnchorBlocks: 2 ** 24 + 1 }), NOW)).toThrow('lru_anchor_blocks 16777217 is above 16777216');
    const older = { ...batch, consideredReferences: 0n, distinctBlocksHllPrecision: 0, distinctBlocksHllUpdates: [] };
    expect(() => validateReferenceBatch(view(older), NOW)).toThrow('the LRU anchor need distinct_blocks_hll_precision');
    expect(() => validateReferenceBatch(view({ ...older, lruAnchorHits: 0n, lruAnchorBlocks: 0 }), NOW)).not.toThrow();
  });

  it('refuses references without a direction, without length, or out of time order', () => {
    const batch = decoded();
    expect(() =>
      validateReferenceBatch(view({ ...batch, references: [{ ...batch.references[0], direction: Direction.UNSPECIFIED }] }), NOW),
    ).toThrow('references[0].direction must be READ or WRITE, got 0');
    expect(() => validateReferenceBatch(view({ ...batch, references: [{ ...batch.references[0], lengthBlocks: 0 }] }), NOW)).toThrow(
      'references[0].length_blocks must be >= 1',
    );
    expect(() => validateReferenceBatch(view({ ...batch, references: [...batch.references].reverse() }), NOW)).toThrow(
      /references\[1\]\.time_offset_us 250 is before the previous reference's \(500\)/,
    );
  });

  it('refuses a reference outside the SHARDS sample, which the working-set job would reject', () => {
    const batch = decoded();
    const unsampled = batch.samplingModulus * 7n + batch.samplingThreshold;
    expect(() => validateReferenceBatch(view({ ...batch, references: [{ ...batch.references[0], blockHash: unsampled }] }), NOW)).toThrow(
      `references[0].block_hash ${unsampled} is not in the sample`,
    );
  });
});
