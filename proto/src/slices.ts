import * as protobuf from "protobufjs";
import { messageCodec } from "./codec";
import { ProtoDecodeError } from "./errors";
import type { IngestRecord } from "./types";

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
 * {@link resourceMetricsIngestRecord} a request is split per volume without re-encoding
 * anything: ingest publishes each volume's bytes as the agent sent them.
 *
 * @throws ProtoDecodeError when the body is not a well-formed message.
 */
export function resourceMetricsSlices(body: Uint8Array): Uint8Array[] {
  return field1Slices(body, "opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest");
}

const INGEST_RECORD = messageCodec<IngestRecord>("tierwise.v1.IngestRecord");
/** Tag of IngestRecord's `payload` (field 5, length-delimited), its last field. */
const PAYLOAD_TAG = (5 << 3) | 2;

/**
 * The encoding of `record` whose payload is the ExportMetricsServiceRequest that holds the one
 * ResourceMetrics `resourceMetrics` (e.g. a slice from {@link resourceMetricsSlices}): the bytes
 * `IngestRecord.encode({ ...record, payload })` gives for that request, copied once (the record's
 * other fields, the payload's length and the request's frame come before it; the payload is the
 * last field).
 */
export function resourceMetricsIngestRecord(record: Omit<IngestRecord, "payload">, resourceMetrics: Uint8Array): Buffer {
  const fields = INGEST_RECORD.encode({ ...record, payload: new Uint8Array(0) });
  const frame = protobuf.Writer.create().uint32(FIELD_1_MESSAGE_TAG).uint32(resourceMetrics.length).finish();
  const payload = protobuf.Writer.create().uint32(PAYLOAD_TAG).uint32(frame.length + resourceMetrics.length).finish();
  return Buffer.concat([fields, payload, frame, resourceMetrics]);
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
