/**
 * The golden reference_batch's miniature simulations (fields 15, 16 of reference_batch.proto):
 * their counts agree with the batch's own sample.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Direction, EvictionPolicy, ReferenceBatch } from "../src/index";
import { goldenBin } from "./golden-files";

describe("golden vector contents: miniature simulations", () => {
  const bin = goldenBin("reference_batch");
  const batch = ReferenceBatch.decode(bin);

  it("lists the five policies, LRU first, as a packed enum", () => {
    const { LRU, S3FIFO, ARC, TWO_Q, SIEVE } = EvictionPolicy;
    assert.deepEqual(batch.miniaturePolicies, [LRU, S3FIFO, ARC, TWO_Q, SIEVE]);
    // ReferenceBatch field 15, packed: tag 0x7a, 5 bytes: 1 2 3 4 5.
    assert.ok(Buffer.from(bin).toString("hex").includes("7a050102030405"), "miniature_policies packed");
  });

  it("counts per size the batch's references with H mod P < T_C, 64-bit fields as bigint", () => {
    assert.deepEqual(
      batch.miniatureSimulations.map((s) => [s.cacheBytes, s.samplingThreshold, s.references, s.readReferences]),
      [
        [4n << 20n, 167_772n, 2n, 0n],
        [6n << 20n, 167_772n, 2n, 0n],
      ],
    );
    assert.deepEqual(batch.miniatureSimulations[0].misses, [2n, 1n, 1n, 2n, 1n]);
    for (const s of batch.miniatureSimulations) {
      const sample = batch.references.filter((r) => r.blockHash % batch.samplingModulus < s.samplingThreshold);
      assert.equal(s.references, BigInt(sample.length));
      assert.equal(s.readReferences, BigInt(sample.filter((r) => r.direction === Direction.READ).length));
      assert.equal(s.misses.length, batch.miniaturePolicies.length);
      assert.deepEqual(s.readMisses, [0n, 0n, 0n, 0n, 0n]);
    }
  });
});
