/**
 * Golden vectors (proto/testdata): every .bin decodes to its .json, the .json encodes back to
 * the same bytes, and the vectors carry the contract values of METRICS.md and the .protos.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, it } from "node:test";
import { writeGolden } from "../scripts/make-golden";
import {
  AggregationTemporality,
  ATTR,
  Direction,
  ExportMetricsServiceRequest,
  IngestRecord,
  IO_LENGTH_BOUNDS_BYTES,
  METRIC,
  METRIC_SPECS,
  messageCodec,
  ReferenceBatch,
  SCOPE_NAME,
} from "../src/index";
import { assertSameBytes, goldenBin, goldenJson, manifest, TESTDATA_DIR } from "./golden-files";

describe("golden vectors", () => {
  const entries = manifest();

  it("lists the six vectors, each with a .bin and a .json", () => {
    assert.deepEqual(
      entries.map((e) => e.name),
      ["reference_batch", "reference_batches", "export_metrics_request", "export_metrics_response", "ingest_record_refs", "ingest_record_metrics"],
    );
    const files = readdirSync(TESTDATA_DIR);
    for (const { name } of entries) {
      assert.ok(files.includes(`${name}.bin`) && files.includes(`${name}.json`), name);
    }
  });

  for (const { name, type } of entries) {
    describe(name, () => {
      const codec = messageCodec<unknown>(type);
      const bin = goldenBin(name);
      const json = goldenJson(name);

      it(`decodes ${name}.bin to ${name}.json`, () => {
        assert.deepEqual(codec.toJson(codec.decode(bin) as object), json);
      });
      it(`encodes ${name}.json to the bytes of ${name}.bin`, () => {
        assertSameBytes(codec.encode(codec.fromJson(json) as object), bin);
      });
      it("re-encodes the decoded message byte for byte", () => {
        assertSameBytes(codec.encode(codec.decode(bin) as object), bin);
      });
    });
  }

  it("are what scripts/make-golden.ts writes today (no stale vectors)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tierwise-golden-"));
    try {
      for (const file of writeGolden(dir)) {
        assertSameBytes(readFileSync(path.join(dir, file)), readFileSync(path.join(TESTDATA_DIR, file)), file);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("golden vector contents", () => {
  it("reference_batch keeps 64-bit hashes exact and encodes block_hash as fixed64", () => {
    const bin = goldenBin("reference_batch");
    const batch = ReferenceBatch.decode(bin);
    assert.deepEqual(
      batch.references.map((r) => r.blockHash),
      [2n ** 64n - 1n, 2n ** 63n + 1n, 0x0123456789abcdefn, 0xffn],
    );
    assert.deepEqual(
      batch.references.map((r) => r.direction),
      [Direction.READ, Direction.WRITE, Direction.READ, Direction.WRITE],
    );
    assert.equal(batch.references[0].timeOffsetUs, 0n);
    assert.equal(batch.references[3].timeOffsetUs, 4_294_967_301n);
    assert.equal(batch.samplingModulus, 1n << 24n);
    // BlockReference field 1 (fixed64): tag 0x09 then 8 little-endian bytes.
    const hex = Buffer.from(bin).toString("hex");
    assert.ok(hex.includes("09ffffffffffffffff"), "0xFFFFFFFFFFFFFFFF as fixed64");
    assert.ok(hex.includes("090100000000000080"), "0x8000000000000001 as fixed64");
    // Stream totals: N, HyperLogLog p, and the register updates packed (field 11: tag 0x5a,
    // 8 bytes: varints 1, 0x123407, 0xFFFF19).
    assert.equal(batch.consideredReferences, 4_096n);
    assert.equal(batch.distinctBlocksHllPrecision, 16);
    assert.deepEqual(batch.distinctBlocksHllUpdates, [1, (0x1234 << 8) | 7, (0xffff << 8) | 25]);
    assert.ok(hex.includes("5a0801"), "distinct_blocks_hll_updates packed");
  });

  it("export_metrics_request follows METRICS.md", () => {
    const request = ExportMetricsServiceRequest.decode(goldenBin("export_metrics_request"));
    assert.equal(request.resourceMetrics.length, 1);
    const [rm] = request.resourceMetrics;
    const attrs = new Map(rm.resource?.attributes.map((kv) => [kv.key, kv.value?.stringValue]));
    assert.equal(attrs.get(ATTR.serviceName), "tierwise-agent");
    assert.equal(attrs.get(ATTR.volumeId), "c0ffee00d15ea5e1");
    assert.equal(rm.scopeMetrics[0].scope?.name, SCOPE_NAME);

    const metrics = new Map(rm.scopeMetrics[0].metrics.map((m) => [m.name, m]));
    for (const [name, metric] of metrics) {
      const spec = METRIC_SPECS[name as keyof typeof METRIC_SPECS];
      assert.ok(spec, `${name} is a METRICS.md metric`);
      assert.equal(metric.unit, spec.unit, `${name} unit`);
      assert.ok(metric[spec.kind], `${name} is a ${spec.kind}`);
    }
    const ops = metrics.get(METRIC.ioOperations)?.sum;
    assert.equal(ops?.aggregationTemporality, AggregationTemporality.DELTA);
    assert.equal(ops?.isMonotonic, true);

    const size = metrics.get(METRIC.ioSize)?.histogram?.dataPoints[0];
    assert.ok(size);
    assert.deepEqual(size.explicitBounds, [...IO_LENGTH_BOUNDS_BYTES]);
    assert.equal(size.bucketCounts.length, 18);
    assert.equal(size.bucketCounts.reduce((a, b) => a + b, 0n), size.count);
    // Front-end reads counted by the histogram = tierwise.io.operations{read, frontend}.
    assert.equal(ops?.dataPoints[0].asInt, size.count);
    assert.equal(BigInt(size.sum ?? -1), metrics.get(METRIC.ioBytes)?.sum?.dataPoints[0].asInt);

    assert.equal(metrics.get(METRIC.cacheCapacity)?.gauge?.dataPoints[0].asInt, 2n ** 53n + 1n);
  });

  it("ingest records wrap the other vectors' bytes unchanged", () => {
    const refs = IngestRecord.decode(goldenBin("ingest_record_refs"));
    assertSameBytes(refs.payload, goldenBin("reference_batch"));
    assert.equal(refs.batchId, ReferenceBatch.decode(refs.payload).batchId);
    const metrics = IngestRecord.decode(goldenBin("ingest_record_metrics"));
    assertSameBytes(metrics.payload, goldenBin("export_metrics_request"));
    assert.match(metrics.batchId, /#1$/);
  });
});
