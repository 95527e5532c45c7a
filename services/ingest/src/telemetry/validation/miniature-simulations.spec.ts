import { EvictionPolicy, type MiniatureSimulation } from '@tierwise/proto';
import { describe, expect, it } from 'vitest';
import { simulationBatch as batch, validate } from '../../../test/support/miniature-fixtures.js';

const { UNSPECIFIED, LRU, S3FIFO, ARC, TWO_Q, SIEVE } = EvictionPolicy;

/** The batch with simulation `i` changed by `change`. */
function withSimulation(i: number, change: Partial<MiniatureSimulation>) {
  const b = batch();
  return { ...b, miniatureSimulations: b.miniatureSimulations.map((s, k) => (k === i ? { ...s, ...change } : s)) };
}

describe('validateReferenceBatch: miniature simulations', () => {
  it('accepts an agent batch with them, the policies alone (no size sampled a reference) and neither (older agents)', () => {
    expect(validate(batch())).not.toThrow();
    expect(validate({ ...batch(), miniatureSimulations: [] })).not.toThrow();
    expect(validate({ ...batch(), miniaturePolicies: [], miniatureSimulations: [] })).not.toThrow();
  });

  it('refuses simulations without policies', () => {
    expect(validate({ ...batch(), miniaturePolicies: [] })).toThrow('miniature_simulations need miniature_policies');
  });

  it('refuses an unknown or repeated policy, more than five, and policies without LRU', () => {
    const policies = (miniaturePolicies: EvictionPolicy[]) => validate({ ...batch(), miniaturePolicies, miniatureSimulations: [] });
    expect(policies([LRU, UNSPECIFIED])).toThrow('miniature_policies[1] must be one of LRU, S3FIFO, ARC, TWO_Q, SIEVE, got 0');
    expect(policies([LRU, 9 as EvictionPolicy])).toThrow('miniature_policies[1] must be one of LRU, S3FIFO, ARC, TWO_Q, SIEVE, got 9');
    expect(policies([LRU, ARC, ARC])).toThrow('miniature_policies[2]: ARC is listed twice');
    expect(policies([LRU, S3FIFO, ARC, TWO_Q, SIEVE, LRU])).toThrow('batch holds 6 miniature_policies; at most 5 are accepted');
    expect(policies([S3FIFO, SIEVE])).toThrow('miniature_policies must include LRU');
  });

  it('bounds the simulations at 64 sizes, each a positive multiple of 4 KiB below 2^63, ascending', () => {
    const b = batch();
    const many = Array.from({ length: 65 }, (_, i) => ({ ...b.miniatureSimulations[0], cacheBytes: BigInt(i + 1) << 22n }));
    expect(validate({ ...b, miniatureSimulations: many.slice(0, 64) })).not.toThrow();
    expect(validate({ ...b, miniatureSimulations: many })).toThrow('miniature_simulations holds more than 64 cache sizes');
    expect(validate(withSimulation(0, { cacheBytes: 0n }))).toThrow(
      'miniature_simulations[0].cache_bytes must be a positive multiple of 4096 below 2^63, got 0',
    );
    expect(validate(withSimulation(1, { cacheBytes: (6n << 20n) + 512n }))).toThrow(
      'miniature_simulations[1].cache_bytes must be a positive multiple of 4096 below 2^63, got 6291968',
    );
    expect(validate(withSimulation(1, { cacheBytes: 1n << 63n }))).toThrow(
      'miniature_simulations[1].cache_bytes must be a positive multiple of 4096 below 2^63, got 9223372036854775808',
    );
    expect(validate(withSimulation(1, { cacheBytes: 4n << 20n }))).toThrow(
      'miniature_simulations[1].cache_bytes 4194304 does not ascend (the previous size is 4194304)',
    );
    expect(validate(withSimulation(1, { cacheBytes: 4n << 20n, samplingThreshold: 1n << 15n }))).toThrow(
      'miniature_simulations[1].cache_bytes 4194304 does not ascend (the previous size is 4194304)',
    );
  });

  it('requires 0 < T_C <= the batch T', () => {
    expect(validate(withSimulation(0, { samplingThreshold: 0n }))).toThrow(
      'miniature_simulations[0].sampling_threshold must be in 1..sampling_threshold (65536), got 0',
    );
    expect(validate(withSimulation(1, { samplingThreshold: (1n << 16n) + 1n }))).toThrow(
      'miniature_simulations[1].sampling_threshold must be in 1..sampling_threshold (65536), got 65537',
    );
  });

  it("requires 1 <= references <= the batch's references and read_references <= references", () => {
    expect(validate(withSimulation(0, { references: 0n }))).toThrow(
      "miniature_simulations[0].references must be in 1..3 (the batch's references), got 0",
    );
    expect(validate(withSimulation(1, { references: 4n }))).toThrow(
      "miniature_simulations[1].references must be in 1..3 (the batch's references), got 4",
    );
    expect(validate(withSimulation(1, { readReferences: 4n }))).toThrow('miniature_simulations[1].read_references 4 is above references 3');
  });

  it('requires one count per policy, misses <= references, read misses <= read_references and <= misses', () => {
    expect(validate(withSimulation(0, { misses: [3n, 2n, 2n, 3n] }))).toThrow(
      'miniature_simulations[0].misses holds 4 counts; miniature_policies holds 5',
    );
    expect(validate(withSimulation(1, { readMisses: [1n, 1n, 0n, 1n, 1n, 1n] }))).toThrow(
      'miniature_simulations[1].read_misses holds 6 counts; miniature_policies holds 5',
    );
    expect(validate(withSimulation(1, { misses: [2n, 2n, 4n, 2n, 2n] }))).toThrow(
      'miniature_simulations[1].misses[2] 4 is above references 3',
    );
    expect(validate(withSimulation(1, { readMisses: [1n, 1n, 0n, 3n, 1n] }))).toThrow(
      'miniature_simulations[1].read_misses[3] 3 is above read_references 2',
    );
    expect(validate(withSimulation(1, { readMisses: [1n, 1n, 2n, 1n, 1n] }))).toThrow(
      'miniature_simulations[1].read_misses[2] 2 is above misses[2] 1',
    );
  });
});
