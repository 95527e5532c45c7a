import * as protobuf from "protobufjs";
import { ProtoDecodeError } from "./errors";

/** Tag of field 1, length-delimited: the repeated message of both requests below. */
const FIELD_1_MESSAGE_TAG = (1 << 3) | 2;

/**
 * The elements of a request's repeated message field 1 as byte slices of the body, in order,
 * without decoding them (other top-level fields are skipped, as a decoder skips unknown fields).
 *
 * @param typeName the request's message name, for the error.
 * @returns views into `body` (not copies).
 * @throws ProtoDecodeError when the body is not a well-formed message (bad wire type,
 *   truncated length or field).
 */
function field1Slices(body: Uint8Array, typeName: string): Uint8Array[] {
  const slices: Uint8Array[] = [];
  const reader = protobuf.Reader.create(body);
  try {
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      if (tag === FIELD_1_MESSAGE_TAG) {
        slices.push(reader.bytes());
      } else {
        reader.skipType(tag & 7);
      }
    }
  } catch (err) {
    throw new ProtoDecodeError(typeName, (err as Error).message);
  }
  return slices;
}

/**
 * The ResourceMetrics of an OTLP ExportMetricsServiceRequest body (`resource_metrics`, field 1
 * in opentelemetry-proto) as byte slices of the body, in order, without decoding them. With
 * {@link singleResourceMetricsRequest} a request is split per volume without re-encoding
 * anything: ingest publishes each volume's bytes as the agent sent them.
 *
 * @throws ProtoDecodeError when the body is not a well-formed message.
 */
export function resourceMetricsSlices(body: Uint8Array): Uint8Array[] {
  return field1Slices(body, "opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest");
}

/**
 * The body of an ExportMetricsServiceRequest that holds one ResourceMetrics: `resourceMetrics`
 * (its encoding, e.g. a slice from {@link resourceMetricsSlices}) framed as field 1.
 */
export function singleResourceMetricsRequest(resourceMetrics: Uint8Array): Uint8Array {
  return protobuf.Writer.create().uint32(FIELD_1_MESSAGE_TAG).bytes(resourceMetrics).finish();
}

/**
 * The ReferenceBatch encodings of a tierwise.v1.ReferenceBatches body (`batches`, field 1) as
 * byte slices of the body, in order, without decoding them: each is the body a
 * `POST /v1/refs` of that batch alone would carry, and ingest publishes it as received.
 *
 * @throws ProtoDecodeError when the body is not a well-formed message.
 */
export function referenceBatchSlices(body: Uint8Array): Uint8Array[] {
  return field1Slices(body, "tierwise.v1.ReferenceBatches");
}
