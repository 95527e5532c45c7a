/**
 * The golden reference_batch's miniature simulations (fields 15 to 17 of reference_batch.proto):
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

  it("repeats a host tier size once per T_C, the higher first, each reference counted once per size", () => {
    const host = batch.hostTierSimulations;
    assert.deepEqual(
      host.map((s) => [s.cacheBytes, s.samplingThreshold, s.references, s.readReferences]),
      [
        [4n << 20n, 167_772n, 1n, 0n],
        [4n << 20n, 131_250n, 1n, 0n],
      ],
    );
    assert.deepEqual(
      host.map((s) => s.misses),
      [
        [1n, 1n, 1n, 1n, 1n],
        [1n, 0n, 1n, 1n, 0n],
      ],
    );
    host.slice(1).forEach((s, i) => {
      const previous = host[i];
      assert.ok(
        s.cacheBytes > previous.cacheBytes ||
          (s.cacheBytes === previous.cacheBytes && s.samplingThreshold < previous.samplingThreshold),
        `host_tier_simulations[${i + 1}] follows [${i}]: ascending size, a repeat at a lower T_C`,
      );
    });
    const inSample = (threshold: bigint) => batch.references.filter((r) => r.blockHash % batch.samplingModulus < threshold);
    for (const bytes of new Set(host.map((s) => s.cacheBytes))) {
      const entries = host.filter((s) => s.cacheBytes === bytes);
      const counted = entries.reduce((sum, s) => sum + s.references, 0n);
      assert.ok(counted <= BigInt(inSample(entries[0].samplingThreshold).length), `size ${bytes}: references once each`);
    }
    for (const s of host) {
      assert.ok(s.references <= BigInt(inSample(s.samplingThreshold).length));
      assert.equal(s.misses.length, batch.miniaturePolicies.length);
      assert.ok(s.misses.every((m) => m <= s.references));
      assert.deepEqual(s.readMisses, [0n, 0n, 0n, 0n, 0n]);
    }
  });
});
