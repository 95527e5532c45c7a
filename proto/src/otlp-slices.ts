import * as protobuf from "protobufjs";
import { ProtoDecodeError } from "./errors";

const REQUEST = "opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest";
/** ExportMetricsServiceRequest.resource_metrics: field 1, length-delimited (opentelemetry-proto). */
const RESOURCE_METRICS_TAG = (1 << 3) | 2;

/**
 * The ResourceMetrics of an OTLP ExportMetricsServiceRequest body as byte slices of the body,
 * in order, without decoding them (other top-level fields are skipped, as a decoder skips
 * unknown fields). With {@link singleResourceMetricsRequest} a request is split per volume
 * without re-encoding anything: ingest publishes each volume's bytes as the agent sent them.
 *
 * @param body the request body (protobuf binary encoding).
 * @returns views into `body` (not copies), one per resource_metrics element.
 * @throws ProtoDecodeError when the body is not a well-formed message (bad wire type,
 *   truncated length or field).
 */
export function resourceMetricsSlices(body: Uint8Array): Uint8Array[] {
  const slices: Uint8Array[] = [];
  const reader = protobuf.Reader.create(body);
  try {
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      if (tag === RESOURCE_METRICS_TAG) {
        slices.push(reader.bytes());
      } else {
        reader.skipType(tag & 7);
      }
    }
  } catch (err) {
    throw new ProtoDecodeError(REQUEST, (err as Error).message);
  }
  return slices;
}

/**
 * The body of an ExportMetricsServiceRequest that holds one ResourceMetrics: `resourceMetrics`
 * (its encoding, e.g. a slice from {@link resourceMetricsSlices}) framed as field 1.
 */
export function singleResourceMetricsRequest(resourceMetrics: Uint8Array): Uint8Array {
  return protobuf.Writer.create().uint32(RESOURCE_METRICS_TAG).bytes(resourceMetrics).finish();
}
