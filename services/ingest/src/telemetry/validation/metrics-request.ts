import {
  ATTR,
  CACHE_MODES,
  closeMessage,
  type MetricKind,
  messageEnd,
  METRIC_SPECS,
  nextTag,
  readUtf8,
  skimMessage,
  VOLUME_SOURCES,
  type VolumeSource,
  WireType,
  wireReader,
  type WireReader,
} from '@tierwise/proto';
import { ApiError } from '@tierwise/common';
import { MAX_RESOURCE_METRICS } from '../../ingest.constants.js';
import { IntervalStarts } from './interval-starts.js';
import { checkMetricData, MetricPlace, ruleOf } from './metric-points.js';
import { keyOf, keyValueRange, readKeyValue, stringOf } from './otlp-attributes.js';
import { checkPseudonymousId, optionalId, reject } from './validation.js';

/** One volume of an OTLP request: its ids, its opted-in names and where its figures come from. */
export interface VolumeMetrics {
  hostId: string;
  volumeId: string;
  /** `host.name`, present only when the tenant opted in for this host. */
  hostName: string | null;
  /** `tierwise.volume.name`, present only when the tenant opted in for this host. */
  volumeName: string | null;
  /** `tierwise.cluster.id` (lowercase hex), or null when the agent runs without --cluster. */
  clusterId: string | null;
  /** Where the figures come from: `tierwise.volume.source`, `agent` when absent. */
  source: VolumeSource;
}

const MAX_NAME_LENGTH = 256;

/**
 * Validates the ResourceMetrics of an OTLP ExportMetricsServiceRequest, read from their bytes
 * without building the message (`@tierwise/proto` wire.ts), against the agent telemetry contract
 * (proto/METRICS.md): 1 to 1000 ResourceMetrics, each with `host.id` and `tierwise.volume.id`
 * (lowercase hex), `tierwise.cluster.id` when present (lowercase hex), `tierwise.cache.mode` when
 * present one of {@link CACHE_MODES}, `tierwise.volume.source` when present `vscsistats`; only
 * the metric names of METRICS.md, each with its data kind and its data points within METRICS.md
 * "Limits" ({@link checkMetricData}); every data point timestamp no more than 5 minutes ahead of
 * now and no more than 30 days old; the points of one interval agreeing on a non-zero start
 * before their time. The bytes must be what protobuf-java parses (strings valid UTF-8, no field
 * past its message's end), with fields repeated on the wire merged as it merges them. What passes
 * here the metrics job's parser accepts too (`proto/testdata/invalid_metrics.json` holds the
 * cases both refuse).
 *
 * @param slices the request's ResourceMetrics encodings (`resourceMetricsSlices`).
 * @param nowUnixNano the receive time, Unix epoch nanoseconds.
 * @returns one entry per ResourceMetrics, in request order.
 * @throws ApiError invalid_body whose message names the first offending element (`body is not a
 *   valid ExportMetricsServiceRequest (resourceMetrics[i]): ...` for bytes protobuf-java refuses).
 */
export function validateMetricsRequest(slices: readonly Uint8Array[], nowUnixNano: bigint): VolumeMetrics[] {
  const count = slices.length;
  if (count === 0) {
    reject('request holds no ResourceMetrics');
  }
  if (count > MAX_RESOURCE_METRICS) {
    reject(`request holds ${count} ResourceMetrics; at most ${MAX_RESOURCE_METRICS} (one per volume) are accepted`);
  }
  const place = new MetricPlace();
  return slices.map((slice, i) => {
    place.where = `resourceMetrics[${i}]`;
    place.bytes = slice;
    try {
      return validateResourceMetrics(wireReader(slice), place, nowUnixNano);
    } catch (error) {
      if (isMalformed(error)) {
        reject(`body is not a valid ExportMetricsServiceRequest (${place.where}): ${error.message}`);
      }
      throw error;
    }
  });
}

/** Whether `error` is the protobuf reader's (`Error`, `RangeError` when truncated), not a refusal or a bug. */
function isMalformed(error: unknown): error is Error {
  return error instanceof Error && !(error instanceof ApiError) && (error.constructor === Error || error instanceof RangeError);
}

/** Nesting depths: the request is 0, a ResourceMetrics 1. */
const RESOURCE_DEPTH = 2;
const SCOPE_METRICS_DEPTH = 2;
const METRIC_DEPTH = 3;

function validateResourceMetrics(reader: WireReader, place: MetricPlace, nowUnixNano: bigint): VolumeMetrics {
  const { where } = place;
  const resources: number[] = [];
  const scopes: number[] = [];
  while (reader.pos < reader.len) {
    const tag = nextTag(reader);
    const field = tag >>> 3;
    const wireType = tag & 7;
    if ((field === 1 || field === 2) && wireType === WireType.LEN) {
      const end = messageEnd(reader, field === 1 ? RESOURCE_DEPTH : SCOPE_METRICS_DEPTH);
      (field === 1 ? resources : scopes).push(reader.pos, end);
      reader.pos = end;
    } else if (field === 3 && wireType === WireType.LEN) {
      readUtf8(reader, range);
    } else {
      reader.skipType(wireType, 1, field);
    }
  }
  const attributes = resourceAttributes(reader, resources);
  const volume: VolumeMetrics = {
    hostId: checkPseudonymousId(stringAttribute(attributes, ATTR.hostId, where), `${where} resource attribute ${ATTR.hostId}`),
    volumeId: checkPseudonymousId(stringAttribute(attributes, ATTR.volumeId, where), `${where} resource attribute ${ATTR.volumeId}`),
    hostName: optionalName(attributes, ATTR.hostName, where),
    volumeName: optionalName(attributes, ATTR.volumeName, where),
    clusterId: optionalId(stringAttribute(attributes, ATTR.clusterId, where), `${where} resource attribute ${ATTR.clusterId}`),
    source: sourceOf(attributes, where),
  };
  const mode = stringAttribute(attributes, ATTR.cacheMode, where);
  if (mode !== undefined && !(CACHE_MODES as readonly string[]).includes(mode)) {
    reject(`${where} resource attribute ${ATTR.cacheMode} '${mode.slice(0, 80)}' is not ${CACHE_MODES.join(' or ')}`);
  }
  const intervals = new IntervalStarts();
  for (let s = 0; s < scopes.length; s += 2) {
    place.scope = s / 2;
    checkScopeMetrics(reader, scopes[s], scopes[s + 1], place, intervals, nowUnixNano);
  }
  intervals.checkStarts(where);
  return volume;
}

const range = { start: 0, end: 0 };
const keyValue = keyValueRange();

/**
 * The resource's attributes, key to string value (null: not a string), the first of each key
 * (the Resource's occurrences merge, as protobuf-java merges them).
 */
function resourceAttributes(reader: WireReader, resources: readonly number[]): Map<string, string | null> {
  const attributes = new Map<string, string | null>();
  for (let r = 0; r < resources.length; r += 2) {
    reader.pos = resources[r];
    const end = resources[r + 1];
    while (reader.pos < end) {
      const tag = nextTag(reader);
      const field = tag >>> 3;
      const wireType = tag & 7;
      if (field === 1 && wireType === WireType.LEN) {
        readKeyValue(reader, RESOURCE_DEPTH + 1, keyValue);
        const key = keyOf(reader, keyValue);
        if (!attributes.has(key)) attributes.set(key, stringOf(reader, keyValue));
      } else if (field === 3 && wireType === WireType.LEN) {
        skimMessage(reader, messageEnd(reader, RESOURCE_DEPTH + 1), 'opentelemetry.proto.common.v1.EntityRef', RESOURCE_DEPTH + 1);
      } else {
        reader.skipType(wireType, RESOURCE_DEPTH, field);
      }
    }
    closeMessage(reader, end);
  }
  return attributes;
}

function checkScopeMetrics(reader: WireReader, start: number, end: number, place: MetricPlace, intervals: IntervalStarts, nowUnixNano: bigint): void {
  reader.pos = start;
  place.metric = 0;
  while (reader.pos < end) {
    const tag = nextTag(reader);
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (field === 2 && wireType === WireType.LEN) {
      checkMetric(reader, place, intervals, nowUnixNano);
      place.metric += 1;
    } else if (field === 1 && wireType === WireType.LEN) {
      skimMessage(reader, messageEnd(reader, METRIC_DEPTH), 'opentelemetry.proto.common.v1.InstrumentationScope', METRIC_DEPTH);
    } else if (field === 3 && wireType === WireType.LEN) {
      readUtf8(reader, range);
    } else {
      reader.skipType(wireType, SCOPE_METRICS_DEPTH, field);
    }
  }
  closeMessage(reader, end);
}

/** Metric's `data` oneof: field number to the message type of the member. */
const DATA_TYPES: ReadonlyMap<number, string> = new Map([
  [5, 'opentelemetry.proto.metrics.v1.Gauge'],
  [7, 'opentelemetry.proto.metrics.v1.Sum'],
  [9, 'opentelemetry.proto.metrics.v1.Histogram'],
  [10, 'opentelemetry.proto.metrics.v1.ExponentialHistogram'],
  [11, 'opentelemetry.proto.metrics.v1.Summary'],
]);
/** The `data` member of each kind a metric may have. */
const KIND_FIELDS: Readonly<Record<MetricKind, number>> = { gauge: 5, sum: 7, histogram: 9, exponentialHistogram: 10 };

function checkMetric(reader: WireReader, place: MetricPlace, intervals: IntervalStarts, nowUnixNano: bigint): void {
  const end = messageEnd(reader, METRIC_DEPTH);
  let nameStart = reader.pos;
  let nameEnd = reader.pos;
  /** The `data` member set last, and its occurrences (protobuf-java merges those; another member clears them). */
  let dataField = 0;
  const data: number[] = [];
  while (reader.pos < end) {
    const tag = nextTag(reader);
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (field === 1 && wireType === WireType.LEN) {
      readUtf8(reader, range);
      nameStart = range.start;
      nameEnd = range.end;
    } else if ((field === 2 || field === 3) && wireType === WireType.LEN) {
      readUtf8(reader, range);
    } else if (DATA_TYPES.has(field) && wireType === WireType.LEN) {
      if (field !== dataField) {
        skimData(reader, dataField, data);
        dataField = field;
      }
      const dataEnd = messageEnd(reader, METRIC_DEPTH + 1);
      data.push(reader.pos, dataEnd);
      reader.pos = dataEnd;
    } else if (field === 12 && wireType === WireType.LEN) {
      skimMessage(reader, messageEnd(reader, METRIC_DEPTH + 1), 'opentelemetry.proto.common.v1.KeyValue', METRIC_DEPTH + 1);
    } else {
      reader.skipType(wireType, METRIC_DEPTH, field);
    }
  }
  closeMessage(reader, end);
  place.nameStart = nameStart;
  place.nameEnd = nameEnd;
  const rule = ruleOf(reader.buf, nameStart, nameEnd);
  if (!rule) {
    reject(`${place.metricAt()}: unknown metric name; proto/METRICS.md lists ${Object.keys(METRIC_SPECS).join(', ')}`);
  }
  if (dataField !== KIND_FIELDS[rule.kind]) {
    reject(`${place.metricAt()}: must be a ${rule.kind} (proto/METRICS.md)`);
  }
  checkMetricData(reader, data, METRIC_DEPTH + 1, rule, place, intervals, nowUnixNano);
  reader.pos = end;
}

/** Walks the occurrences of a `data` member another one replaced (protobuf-java parsed them), and forgets them. */
function skimData(reader: WireReader, field: number, data: number[]): void {
  const resume = reader.pos;
  for (let d = 0; d < data.length; d += 2) {
    reader.pos = data[d];
    skimMessage(reader, data[d + 1], DATA_TYPES.get(field)!, METRIC_DEPTH + 1);
  }
  data.length = 0;
  reader.pos = resume;
}

function stringAttribute(attributes: ReadonlyMap<string, string | null>, key: string, where: string): string | undefined {
  const value = attributes.get(key);
  if (value === null) {
    reject(`${where} resource attribute ${key} must be a string`);
  }
  return value;
}

/** `tierwise.volume.source`: absent is the agent; present, only an imported source. */
function sourceOf(attributes: ReadonlyMap<string, string | null>, where: string): VolumeSource {
  const source = stringAttribute(attributes, ATTR.volumeSource, where);
  if (source === undefined) return 'agent';
  const imported = VOLUME_SOURCES.filter((s) => s !== 'agent');
  if (!(imported as readonly string[]).includes(source)) {
    reject(`${where} resource attribute ${ATTR.volumeSource} '${source.slice(0, 80)}' is not ${imported.join(' or ')}`);
  }
  return source as VolumeSource;
}

function optionalName(attributes: ReadonlyMap<string, string | null>, key: string, where: string): string | null {
  const name = stringAttribute(attributes, key, where);
  if (name === undefined || name === '') {
    return null;
  }
  if (name.length > MAX_NAME_LENGTH) {
    reject(`${where} resource attribute ${key} is longer than ${MAX_NAME_LENGTH} characters`);
  }
  return name;
}
