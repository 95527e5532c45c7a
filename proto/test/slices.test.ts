/** Splitting an OTLP metrics request per volume, and a ReferenceBatches request per batch, without re-encoding (ingest's Kafka records). */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  ExportMetricsServiceRequest,
  IngestRecord,
  ProtoDecodeError,
  ReferenceBatch,
  ReferenceBatches,
  referenceBatchSlices,
  ResourceMetrics,
  resourceMetricsIngestRecord,
  resourceMetricsSlices,
} from "../src/index";
import { goldenBin } from "./golden-files";

describe("resourceMetricsSlices", () => {
  const one = ExportMetricsServiceRequest.decode(goldenBin("export_metrics_request")).resourceMetrics[0];
  const volumes = ["aa", "bb", "cc"].map((id) => ({
    ...one,
    resource: { attributes: [{ key: "tierwise.volume.id", value: { stringValue: id } }], droppedAttributesCount: 0 },
  }));
  const body = ExportMetricsServiceRequest.encode({ resourceMetrics: volumes });

  it("returns each ResourceMetrics' bytes, in order, and writes one as an IngestRecord's request of its own", () => {
    const slices = resourceMetricsSlices(body);
    assert.equal(slices.length, 3);
    const record = { tenantId: "t", agentId: "a", batchId: "b#0", receivedUnixNano: 1_700_000_000_000_000_000n };
    slices.forEach((slice, i) => {
      assert.deepEqual(ResourceMetrics.decode(slice), ResourceMetrics.decode(ResourceMetrics.encode(volumes[i])));
      const request = ExportMetricsServiceRequest.encode({ resourceMetrics: [volumes[i]] });
      assert.deepEqual(Buffer.from(resourceMetricsIngestRecord(record, slice)), Buffer.from(IngestRecord.encode({ ...record, payload: request })));
    });
  });

  it("rejects a truncated body with ProtoDecodeError", () => {
    assert.throws(() => resourceMetricsSlices(body.subarray(0, body.length - 3)), ProtoDecodeError);
  });

  it("skips other top-level fields as a decoder skips unknown ones", () => {
    const unknown = Uint8Array.from([(9 << 3) | 0, 42]);
    assert.equal(resourceMetricsSlices(Buffer.concat([unknown, body])).length, 3);
  });
});

describe("referenceBatchSlices", () => {
  const one = ReferenceBatch.decode(goldenBin("reference_batch"));
  const batches = ["aa", "bb"].map((volumeId, i) => ({ ...one, volumeId, sequence: BigInt(i) }));
  const body = ReferenceBatches.encode({ batches });

  it("returns each ReferenceBatch's bytes, in order: the body of a POST /v1/refs of that batch", () => {
    const slices = referenceBatchSlices(body);
    assert.equal(slices.length, 2);
    slices.forEach((slice, i) => assert.deepEqual(slice, ReferenceBatch.encode(batches[i])));
  });

  it("rejects a truncated body with ProtoDecodeError naming the request", () => {
    assert.throws(() => referenceBatchSlices(body.subarray(0, body.length - 3)), /ReferenceBatches/);
  });
});
