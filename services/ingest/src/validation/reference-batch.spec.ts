import { Direction, ReferenceBatch } from '@tierwise/proto';
import { describe, expect, it } from 'vitest';
import { referenceBatch, testVolume } from '../../test/support/telemetry-fixtures.js';
import { validateReferenceBatch } from './reference-batch.js';

const NOW = BigInt(Date.now()) * 1_000_000n + 1_000_000_000n;

function decoded(count = 3) {
  return ReferenceBatch.decode(referenceBatch(testVolume(), count));
}

describe('validateReferenceBatch', () => {
  it('accepts an agent batch', () => {
    expect(() => validateReferenceBatch(decoded(), NOW)).not.toThrow();
  });

  it('requires the batch, host and volume ids', () => {
    expect(() => validateReferenceBatch({ ...decoded(), batchId: '' }, NOW)).toThrow('batch_id is missing');
    expect(() => validateReferenceBatch({ ...decoded(), volumeId: '' }, NOW)).toThrow('volume_id is missing');
    expect(() => validateReferenceBatch({ ...decoded(), hostId: 'esx-07' }, NOW)).toThrow(/host_id must be 8-64 lowercase hex/);
  });

  it('requires P > 0 and 0 < T <= P (SHARDS rate T/P)', () => {
    expect(() => validateReferenceBatch({ ...decoded(), samplingModulus: 0n }, NOW)).toThrow('sampling_modulus must be > 0, got 0');
    expect(() => validateReferenceBatch({ ...decoded(), samplingModulus: 100n, samplingThreshold: 101n }, NOW)).toThrow(
      'sampling_threshold must be in 1..sampling_modulus (100), got 101',
    );
  });

  it('bounds the batch at 100,000 references', () => {
    const batch = decoded(1);
    const tooMany = { ...batch, references: new Array(100_001).fill(batch.references[0]) };
    expect(() => validateReferenceBatch(tooMany, NOW)).toThrow('batch holds 100001 references; at most 100000');
  });

  it('refuses references without a direction, without length, or out of time order', () => {
    const batch = decoded();
    expect(() =>
      validateReferenceBatch({ ...batch, references: [{ ...batch.references[0], direction: Direction.UNSPECIFIED }] }, NOW),
    ).toThrow('references[0].direction must be READ or WRITE, got 0');
    expect(() => validateReferenceBatch({ ...batch, references: [{ ...batch.references[0], lengthBlocks: 0 }] }, NOW)).toThrow(
      'references[0].length_blocks must be >= 1',
    );
    expect(() => validateReferenceBatch({ ...batch, references: [...batch.references].reverse() }, NOW)).toThrow(
      /references\[1\]\.time_offset_us 250 is before the previous reference's \(500\)/,
    );
  });
});
