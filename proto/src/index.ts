/**
 * @tierwise/proto: the Tierwise wire contracts for TypeScript.
 *
 * - Codecs (`decode`/`decodeMessage`/`encode`/`toJson`/`fromJson`) for the OTLP metrics request/response and
 *   tierwise.v1 ReferenceBatch / IngestRecord, parsed from the .proto files on disk
 *   (`TIERWISE_PROTO_DIR` overrides the directory) on first use.
 * - Their TypeScript shapes (same names as the codecs), and `MessageView` of them as protobufjs
 *   decodes them (with `isSet`, `longToBigInt`, `longToNumber` to read one).
 * - Reading bytes in place, field by field, as protobuf-java would parse them (`wire.ts`), for a
 *   validator that builds no message.
 * - The constants of proto/METRICS.md.
 */
import { messageCodec } from "./codec";
import type * as t from "./types";

export type {
  AnyValue,
  BlockReference,
  Exemplar,
  Gauge,
  Histogram,
  HistogramDataPoint,
  InstrumentationScope,
  IoLengthCount,
  KeyValue,
  Long,
  MessageInput,
  MessageView,
  Metric,
  MiniatureSimulation,
  NumberDataPoint,
  ReferenceSummary,
  Resource,
  ScopeMetrics,
  Sum,
  WindowShare,
  WorkingSetShares,
} from "./types";
export { AggregationTemporality, Direction, EvictionPolicy } from "./types";
export { ProtoDecodeError, ProtoEncodeError } from "./errors";
export { isSet, longToBigInt, longToNumber } from "./message-view";
export { messageCodec, type Json, type MessageCodec } from "./codec";
export { loadSchema, OTLP_METRICS_SERVICE_PROTO, schema, TIERWISE_PROTOS } from "./schema";
export { resolveProtoDir } from "./proto-dir";
export { referenceBatchSlices, resourceMetricsIngestRecord, resourceMetricsSlices } from "./slices";
export {
  closeMessage,
  messageEnd,
  nextTag,
  packedEnd,
  readUtf8,
  skimMessage,
  utf8Text,
  WireType,
  wireReader,
  type WireReader,
} from "./wire";
export * from "./metrics";

/** OTLP/HTTP `POST /v1/metrics` body. */
export type ExportMetricsServiceRequest = t.ExportMetricsServiceRequest;
export const ExportMetricsServiceRequest = messageCodec<t.ExportMetricsServiceRequest>(
  "opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest",
);
/** One resource's (a volume's) metrics within an ExportMetricsServiceRequest. */
export type ResourceMetrics = t.ResourceMetrics;
export const ResourceMetrics = messageCodec<t.ResourceMetrics>("opentelemetry.proto.metrics.v1.ResourceMetrics");
/** OTLP/HTTP `POST /v1/metrics` response body. */
export type ExportMetricsServiceResponse = t.ExportMetricsServiceResponse;
export const ExportMetricsServiceResponse = messageCodec<t.ExportMetricsServiceResponse>(
  "opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse",
);
/** `POST /v1/refs` body: SHARDS-sampled block references of one volume. */
export type ReferenceBatch = t.ReferenceBatch;
export const ReferenceBatch = messageCodec<t.ReferenceBatch>("tierwise.v1.ReferenceBatch");
/** `POST /v1/refs/batches` body: the reference batches of one host's volumes ready at one interval close. */
export type ReferenceBatches = t.ReferenceBatches;
export const ReferenceBatches = messageCodec<t.ReferenceBatches>("tierwise.v1.ReferenceBatches");
/** Kafka value on telemetry.metrics.v1 / telemetry.refs.v1. */
export type IngestRecord = t.IngestRecord;
export const IngestRecord = messageCodec<t.IngestRecord>("tierwise.v1.IngestRecord");
