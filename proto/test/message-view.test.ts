/** `decodeMessage`: the message protobufjs decodes reads what `decode` gives, field by field. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  ExportMetricsServiceRequest,
  isSet,
  longToBigInt,
  longToNumber,
  ProtoDecodeError,
  ReferenceBatch,
} from "../src/index";
import { goldenBin } from "./golden-files";

describe("decodeMessage", () => {
  it("reads every reference of the golden batch as decode does, 64-bit integers exactly", () => {
    const bin = goldenBin("reference_batch");
    const plain = ReferenceBatch.decode(bin);
    const view = ReferenceBatch.decodeMessage(bin);
    assert.ok(plain.references.length > 0);
    assert.equal(view.batchId, plain.batchId);
    assert.equal(longToBigInt(view.baseTimeUnixNano), plain.baseTimeUnixNano);
    assert.equal(longToBigInt(view.samplingModulus), plain.samplingModulus);
    assert.deepEqual(
      view.references.map((r) => [longToBigInt(r.blockHash), r.direction, r.lengthBlocks, longToBigInt(r.timeOffsetUs)]),
      plain.references.map((r) => [r.blockHash, r.direction, r.lengthBlocks, r.timeOffsetUs]),
    );
  });

  it("tells a oneof member or optional field sent as zero from one not sent", () => {
    const bytes = ExportMetricsServiceRequest.encode({
      resourceMetrics: [{ scopeMetrics: [{ metrics: [
        { name: "a", gauge: { dataPoints: [{ asDouble: 0 }, { asInt: 0n }, {}] } },
        { name: "b", histogram: { dataPoints: [{ sum: 0 }, {}] } },
      ] }] }],
    });
    const [a, b] = ExportMetricsServiceRequest.decodeMessage(bytes).resourceMetrics[0].scopeMetrics[0].metrics;
    const [double, int, none] = a.gauge!.dataPoints;
    assert.deepEqual([isSet(double, "asDouble"), isSet(double, "asInt")], [true, false]);
    assert.deepEqual([isSet(int, "asDouble"), isSet(int, "asInt")], [false, true]);
    assert.deepEqual([isSet(none, "asDouble"), isSet(none, "asInt"), none.asDouble], [false, false, 0]);
    assert.equal(a.sum, null);
    assert.deepEqual(b.histogram!.dataPoints.map((p) => isSet(p, "sum")), [true, false]);
    assert.deepEqual(b.histogram!.dataPoints[1].bucketCounts, []);
  });

  it("reads 64-bit integers past 2^53 exactly as bigint, rounded as number", () => {
    const big = 2n ** 63n + 12345n;
    const signed = -(2n ** 40n) - 7n;
    const bytes = ExportMetricsServiceRequest.encode({
      resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: "a", gauge: { dataPoints: [{ timeUnixNano: big, asInt: signed }] } }] }] }],
    });
    const point = ExportMetricsServiceRequest.decodeMessage(bytes).resourceMetrics[0].scopeMetrics[0].metrics[0].gauge!.dataPoints[0];
    assert.equal(longToBigInt(point.timeUnixNano), big);
    assert.equal(longToNumber(point.timeUnixNano), Number(big));
    assert.equal(longToBigInt(point.asInt), signed);
    assert.equal(longToNumber(point.asInt), Number(signed));
  });

  it("refuses malformed bytes with ProtoDecodeError as decode does", () => {
    const bin = goldenBin("reference_batch");
    assert.throws(() => ReferenceBatch.decodeMessage(bin.subarray(0, bin.length - 5)), ProtoDecodeError);
  });
});
