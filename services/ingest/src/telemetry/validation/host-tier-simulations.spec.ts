import type { MiniatureSimulation } from '@tierwise/proto';
import { describe, expect, it } from 'vitest';
import { simulation, simulationBatch, validate } from '../../../test/support/miniature-fixtures.js';

/** The batch's T. */
const T = 1n << 16n;
/** The host tier's T_C once another of the host's volumes is at T = 2^15: 7/8 of it (edge-agent/src/cache/miniature_simulations.hpp). */
const LOWER = ((1n << 15n) / 8n) * 7n;

/**
 * The host's shared tier over the batch's 3 references at 4 MiB and 6 MiB, each size's T_C fallen
 * once while the batch was open: the write counted at T, the two reads at the lower T_C.
 */
function hostTier(): MiniatureSimulation[] {
  const [write, reads] = [[1n, 0n], [2n, 2n]] as [bigint, bigint][];
  return [
    simulation(4n << 20n, T, write, [1n, 1n, 1n, 1n, 1n], [0n, 0n, 0n, 0n, 0n]),
    simulation(4n << 20n, LOWER, reads, [2n, 1n, 1n, 2n, 1n], [2n, 1n, 1n, 2n, 1n]),
    simulation(6n << 20n, T, write, [1n, 1n, 1n, 1n, 1n], [0n, 0n, 0n, 0n, 0n]),
    simulation(6n << 20n, LOWER, reads, [1n, 1n, 1n, 1n, 0n], [1n, 1n, 1n, 1n, 0n]),
  ];
}

/** The batch with the host tier's entries `simulations`. */
function withHostTier(hostTierSimulations: MiniatureSimulation[]) {
  return { ...simulationBatch(), hostTierSimulations };
}

/** hostTier() with entry `i` changed by `change`. */
function changed(i: number, change: Partial<MiniatureSimulation>) {
  return withHostTier(hostTier().map((s, k) => (k === i ? { ...s, ...change } : s)));
}

describe('validateReferenceBatch: the host tier simulations', () => {
  it('accepts a size again at a lower T_C, and the host tier without the volume simulations', () => {
    expect(validate(withHostTier(hostTier()))).not.toThrow();
    expect(validate({ ...withHostTier(hostTier()), miniatureSimulations: [] })).not.toThrow();
  });

  it('refuses them without policies', () => {
    expect(validate({ ...withHostTier(hostTier()), miniaturePolicies: [], miniatureSimulations: [] })).toThrow(
      'host_tier_simulations need miniature_policies',
    );
  });

  it('refuses a size again at an equal or higher T_C, and a smaller size', () => {
    expect(validate(changed(1, { samplingThreshold: T }))).toThrow(
      "host_tier_simulations[1].cache_bytes 4194304 comes again at sampling_threshold 65536, not below the previous entry's 65536",
    );
    const [first, second] = hostTier();
    expect(validate(withHostTier([second, first]))).toThrow(
      `host_tier_simulations[1].cache_bytes 4194304 comes again at sampling_threshold 65536, not below the previous entry's ${LOWER}`,
    );
    expect(validate(changed(2, { cacheBytes: 2n << 20n }))).toThrow(
      'host_tier_simulations[2].cache_bytes 2097152 does not ascend (the previous size is 4194304)',
    );
  });

  it('counts the 64 sizes, not the entries', () => {
    const [atT, atLower] = hostTier();
    const sizes = (n: number) =>
      Array.from({ length: n }, (_, i) => [atT, atLower].map((s) => ({ ...s, cacheBytes: BigInt(i + 1) << 22n }))).flat();
    expect(validate(withHostTier(sizes(64)))).not.toThrow();
    expect(validate(withHostTier(sizes(65)))).toThrow('host_tier_simulations holds more than 64 cache sizes');
  });

  it("checks each entry as the volume's, naming the field", () => {
    expect(validate(changed(0, { cacheBytes: 512n }))).toThrow(
      'host_tier_simulations[0].cache_bytes must be a positive multiple of 4096 below 2^63, got 512',
    );
    expect(validate(changed(3, { samplingThreshold: 0n }))).toThrow(
      'host_tier_simulations[3].sampling_threshold must be in 1..sampling_threshold (65536), got 0',
    );
    expect(validate(changed(0, { samplingThreshold: T + 1n }))).toThrow(
      'host_tier_simulations[0].sampling_threshold must be in 1..sampling_threshold (65536), got 65537',
    );
    expect(validate(changed(1, { references: 4n }))).toThrow(
      "host_tier_simulations[1].references must be in 1..3 (the batch's references), got 4",
    );
    expect(validate(changed(2, { misses: [1n, 1n, 1n, 1n] }))).toThrow(
      'host_tier_simulations[2].misses holds 4 counts; miniature_policies holds 5',
    );
    expect(validate(changed(3, { readMisses: [1n, 1n, 1n, 1n, 2n] }))).toThrow(
      'host_tier_simulations[3].read_misses[4] 2 is above misses[4] 0',
    );
  });
});
