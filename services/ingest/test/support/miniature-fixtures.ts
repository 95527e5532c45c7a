/**
 * Agent batches with miniature simulations (proto/tierwise/v1/reference_batch.proto fields 15 to
 * 17), for the validation specs.
 */
import { EvictionPolicy, type MessageInput, type MiniatureSimulation, ReferenceBatch } from '@tierwise/proto';
import { validateReferenceBatch } from '../../src/telemetry/validation/reference-batch.js';
import { referenceBatch, testVolume } from './telemetry-fixtures.js';

/** Ahead of every fixture's base time (Unix epoch ns), within ingest's allowed clock skew. */
const NOW = BigInt(Date.now()) * 1_000_000n + 1_000_000_000n;

/**
 * One size's counts over the 3 references of {@link simulationBatch}: `references` of them, the
 * reads among them `readReferences`, misses and read misses per policy of the batch's five.
 */
export function simulation(
  cacheBytes: bigint,
  samplingThreshold: bigint,
  [references, readReferences]: [bigint, bigint],
  misses: bigint[],
  readMisses: bigint[],
): MiniatureSimulation {
  return { cacheBytes, samplingThreshold, references, readReferences, misses, readMisses };
}

/**
 * An agent batch of 3 references (1 write, 2 reads; T = 2^16 of P = 2^24) with the miniature
 * simulations of the five policies at 4 MiB and 6 MiB, both at the batch's T (every reference in
 * their sample), and no host_tier_simulations.
 */
export function simulationBatch(): ReferenceBatch {
  const { LRU, S3FIFO, ARC, TWO_Q, SIEVE } = EvictionPolicy;
  const all = [3n, 2n] as [bigint, bigint];
  return {
    ...ReferenceBatch.decode(referenceBatch(testVolume(), 3)),
    miniaturePolicies: [LRU, S3FIFO, ARC, TWO_Q, SIEVE],
    miniatureSimulations: [
      simulation(4n << 20n, 1n << 16n, all, [3n, 2n, 2n, 3n, 2n], [2n, 1n, 1n, 2n, 1n]),
      simulation(6n << 20n, 1n << 16n, all, [2n, 2n, 1n, 2n, 2n], [1n, 1n, 0n, 1n, 1n]),
    ],
  };
}

/** Validates `value` as ingest does (its bytes as protobufjs decodes them), as a thunk for expect().toThrow. */
export function validate(value: MessageInput<ReferenceBatch>): () => void {
  return () => validateReferenceBatch(ReferenceBatch.decodeMessage(ReferenceBatch.encode(value)), NOW);
}
