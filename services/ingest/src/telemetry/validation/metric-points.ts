import {
  AggregationTemporality,
  ALIGNMENT_BOUNDS_SECTORS,
  ALIGNMENT_LAYOUTS,
  ATTR,
  closeMessage,
  CONSUMER_CPU_MODES,
  CONSUMER_KINDS,
  HOST_CPU_MODES,
  INTERARRIVAL_BOUNDS_US,
  IO_DIRECTIONS,
  IO_LENGTH_BINS,
  IO_LENGTH_BOUNDS_BYTES,
  IO_SOURCES,
  LATENCY_BOUNDS_US,
  MAX_DELTA_VALUE,
  MAX_GAUGE_VALUE,
  messageEnd,
  METRIC,
  METRIC_SPECS,
  type MetricKind,
  type MetricName,
  nextTag,
  OUTSTANDING_IOS_BOUNDS,
  packedEnd,
  SEEK_DISTANCE_BOUNDS_SECTORS,
  skimMessage,
  utf8Text,
  VSCSI_DIRECTIONS,
  VSCSI_LATENCY_BOUNDS_US,
  WireType,
  type WireReader,
} from '@tierwise/proto';
import { fixed64, type IntervalStarts, type PointPlace } from './interval-starts.js';
import { bytesEqual, keyValueRange, readKeyValue } from './otlp-attributes.js';
import { reject } from './validation.js';

/** A data point attribute a metric must carry, with its allowed values. */
interface AttributeRule {
  key: string;
  keyBytes: Uint8Array;
  allowed: readonly string[];
  allowedBytes: readonly Uint8Array[];
}

/** What proto/METRICS.md requires of one metric's data. */
export interface MetricRule {
  kind: MetricKind;
  /** Required data point attributes, at most {@link MAX_REQUIRED_ATTRIBUTES}. */
  attributes: readonly AttributeRule[];
  /** The histogram's fixed bounds (its bucket counts are one more), with their packed encoding. */
  bounds?: { values: readonly number[]; name: string; packed: Buffer };
  /** A histogram whose values are signed: no `sum`. */
  withoutSum: boolean;
}

type Required = Readonly<Record<string, readonly string[]>>;
const DIRECTION: Required = { [ATTR.ioDirection]: IO_DIRECTIONS };
const DIRECTION_SOURCE: Required = { ...DIRECTION, [ATTR.ioSource]: IO_SOURCES };
const VSCSI_DIRECTION: Required = { [ATTR.ioDirection]: VSCSI_DIRECTIONS };
const SIZE_BINS = IO_LENGTH_BINS.map((bin) => bin.label);

/** The data point attributes each metric must carry, with their allowed values (proto/METRICS.md "Metrics"). */
const REQUIRED_ATTRIBUTES: Partial<Record<MetricName, Required>> = {
  [METRIC.ioOperations]: DIRECTION_SOURCE,
  [METRIC.ioBytes]: DIRECTION_SOURCE,
  [METRIC.ioSize]: DIRECTION,
  [METRIC.ioSizeBytes]: { ...DIRECTION, [ATTR.ioSizeBin]: SIZE_BINS },
  [METRIC.ioLatency]: { ...DIRECTION_SOURCE, [ATTR.ioSizeBin]: SIZE_BINS },
  [METRIC.ioSeekDistance]: VSCSI_DIRECTION,
  [METRIC.ioSeekDistanceClosest]: { [ATTR.ioDirection]: ['all'] },
  [METRIC.ioOutstanding]: VSCSI_DIRECTION,
  [METRIC.ioInterarrival]: VSCSI_DIRECTION,
  [METRIC.ioLatencyVscsiStats]: VSCSI_DIRECTION,
  [METRIC.ioAlignment]: VSCSI_DIRECTION,
  [METRIC.ioAlignmentMisalignedBytes]: DIRECTION,
  [METRIC.ioAlignmentBlocks]: { ...DIRECTION, [ATTR.ioAlignmentLayout]: ALIGNMENT_LAYOUTS },
  [METRIC.cacheHits]: DIRECTION,
  [METRIC.cacheMisses]: DIRECTION,
  [METRIC.hostCpuTime]: { [ATTR.cpuMode]: HOST_CPU_MODES },
  [METRIC.consumerCpuTime]: { [ATTR.cpuMode]: CONSUMER_CPU_MODES, [ATTR.consumerKind]: CONSUMER_KINDS },
};

/** The histograms whose values are signed: no `sum` (proto/METRICS.md "Limits"). */
const WITHOUT_SUM: ReadonlySet<MetricName> = new Set([METRIC.ioSeekDistance, METRIC.ioSeekDistanceClosest]);

/** The histograms' fixed bounds (proto/METRICS.md). */
const HISTOGRAM_BOUNDS: Partial<Record<MetricName, { values: readonly number[]; name: string }>> = {
  [METRIC.ioSize]: { values: IO_LENGTH_BOUNDS_BYTES, name: 'the vscsiStats ioLength bins' },
  [METRIC.ioLatency]: { values: LATENCY_BOUNDS_US, name: 'the latency bounds of METRICS.md' },
  [METRIC.ioSeekDistance]: { values: SEEK_DISTANCE_BOUNDS_SECTORS, name: 'the vscsiStats seek distance bounds' },
  [METRIC.ioSeekDistanceClosest]: { values: SEEK_DISTANCE_BOUNDS_SECTORS, name: 'the vscsiStats seek distance bounds' },
  [METRIC.ioOutstanding]: { values: OUTSTANDING_IOS_BOUNDS, name: 'the vscsiStats outstanding I/O bounds' },
  [METRIC.ioInterarrival]: { values: INTERARRIVAL_BOUNDS_US, name: 'the vscsiStats interarrival bounds' },
  [METRIC.ioLatencyVscsiStats]: { values: VSCSI_LATENCY_BOUNDS_US, name: 'the vscsiStats latency bounds' },
  [METRIC.ioAlignment]: { values: ALIGNMENT_BOUNDS_SECTORS, name: 'the block alignment bounds of METRICS.md' },
};

const MAX_REQUIRED_ATTRIBUTES = 3;
const utf8 = new TextEncoder();

/** `values` as a packed repeated double is encoded: 8 bytes each, little-endian. */
function packedDoubles(values: readonly number[]): Buffer {
  const bytes = Buffer.alloc(values.length * 8);
  values.forEach((value, i) => bytes.writeDoubleLE(value, i * 8));
  return bytes;
}

/** The rule of the metric `name` of proto/METRICS.md. */
function ruleFor(name: MetricName): MetricRule {
  const attributes = Object.entries(REQUIRED_ATTRIBUTES[name] ?? {}).map(([key, allowed]) => ({
    key,
    keyBytes: utf8.encode(key),
    allowed,
    allowedBytes: allowed.map((value) => utf8.encode(value)),
  }));
  if (attributes.length > MAX_REQUIRED_ATTRIBUTES) throw new Error(`${name} requires more than ${MAX_REQUIRED_ATTRIBUTES} attributes`);
  const bounds = HISTOGRAM_BOUNDS[name];
  return { kind: METRIC_SPECS[name].kind, attributes, bounds: bounds && { ...bounds, packed: packedDoubles(bounds.values) }, withoutSum: WITHOUT_SUM.has(name) };
}

/** A key of a name's bytes that tells most names apart: its length and last two bytes. */
function nameKey(bytes: Uint8Array, start: number, end: number): number {
  return ((end - start) << 16) | (bytes[end - 1] << 8) | bytes[end - 2];
}

/** The rule of every metric name of proto/METRICS.md by {@link nameKey} of the name, each with the name's bytes. */
const RULES_BY_KEY = new Map<number, { name: Uint8Array; rule: MetricRule }[]>();
for (const name of Object.keys(METRIC_SPECS) as MetricName[]) {
  const bytes = utf8.encode(name);
  const key = nameKey(bytes, 0, bytes.length);
  RULES_BY_KEY.set(key, [...(RULES_BY_KEY.get(key) ?? []), { name: bytes, rule: ruleFor(name) }]);
}

/** The rule of the metric named by the UTF-8 bytes `bytes[start, end)`, undefined for a name METRICS.md does not list. */
export function ruleOf(bytes: Uint8Array, start: number, end: number): MetricRule | undefined {
  if (end - start < 2) return undefined;
  for (const candidate of RULES_BY_KEY.get(nameKey(bytes, start, end)) ?? []) {
    if (bytesEqual(bytes, start, end, candidate.name)) return candidate.rule;
  }
  return undefined;
}

/** Where a metric and its data point are, for errors; one per request, updated as the walk goes. */
export class MetricPlace implements PointPlace {
  where = '';
  scope = 0;
  metric = 0;
  /** The metric's name: UTF-8 bytes `[nameStart, nameEnd)` of `bytes` (decoded only for an error). */
  bytes: Uint8Array = new Uint8Array(0);
  nameStart = 0;
  nameEnd = 0;
  point = 0;

  /** e.g. `resourceMetrics[0].scopeMetrics[0].metrics[2] "tierwise.io.size"`. */
  metricAt(): string {
    return `${this.where}.scopeMetrics[${this.scope}].metrics[${this.metric}] "${utf8Text(this.bytes, this.nameStart, this.nameEnd).slice(0, 80)}"`;
  }

  pointAt(): string {
    return `${this.metricAt()}.dataPoints[${this.point}]`;
  }
}

const EXEMPLAR = 'opentelemetry.proto.metrics.v1.Exemplar';
const NUMBER_EXEMPLARS = 5;
const HISTOGRAM_EXEMPLARS = 8;

/**
 * Checks one metric's data, a Sum, Gauge, Histogram or ExponentialHistogram as `rule.kind` says,
 * as the metrics job's parser would (proto/METRICS.md "Limits"): delta temporality, values and
 * bucket counts within limits, the required attributes with allowed values, the fixed histogram
 * bounds (an exponential histogram, which the job does not read, only for its times); and adds
 * each data point's interval to `intervals`.
 * @param ranges the data message's occurrences on the wire, `[start, end)` offset pairs of
 *   `reader.buf` (protobuf-java merges them: their points add up, the last temporality set wins).
 * @param depth the data message's nesting depth.
 * @throws ApiError invalid_body naming the metric or data point and the problem.
 * @throws Error when the bytes are not a valid message.
 */
export function checkMetricData(reader: WireReader, ranges: readonly number[], depth: number, rule: MetricRule, place: MetricPlace, intervals: IntervalStarts, nowUnixNano: bigint): void {
  if (rule.kind === 'sum' || rule.kind === 'histogram') {
    const temporality = temporalityOf(reader, ranges, depth);
    if (temporality !== AggregationTemporality.DELTA) {
      reject(`${place.metricAt()}: temporality ${AggregationTemporality[temporality] ?? temporality} is not delta`);
    }
  }
  const max = rule.kind === 'gauge' ? MAX_GAUGE_VALUE : MAX_DELTA_VALUE;
  place.point = 0;
  for (let r = 0; r < ranges.length; r += 2) {
    reader.pos = ranges[r];
    const end = ranges[r + 1];
    while (reader.pos < end) {
      const tag = nextTag(reader);
      if (tag >>> 3 === 1 && (tag & 7) === WireType.LEN) {
        if (rule.kind === 'histogram') checkHistogramPoint(reader, depth + 1, rule, place);
        else if (rule.kind === 'exponentialHistogram') readExponentialPoint(reader, depth + 1, rule);
        else checkNumberPoint(reader, depth + 1, rule, max, place);
        intervals.add(times[0], times[1], times[2], times[3], nowUnixNano, place);
        place.point += 1;
      } else {
        reader.skipType(tag & 7, depth, tag >>> 3);
      }
    }
    closeMessage(reader, end);
  }
}

/** `aggregation_temporality` (field 2) of a Sum or Histogram across its occurrences. */
function temporalityOf(reader: WireReader, ranges: readonly number[], depth: number): number {
  let temporality = 0;
  for (let r = 0; r < ranges.length; r += 2) {
    reader.pos = ranges[r];
    let inRange = 0;
    while (reader.pos < ranges[r + 1]) {
      const tag = nextTag(reader);
      if (tag >>> 3 === 2 && (tag & 7) === WireType.VARINT) inRange = reader.int32();
      else reader.skipType(tag & 7, depth, tag >>> 3);
    }
    if (inRange !== 0) temporality = inRange;
  }
  return temporality;
}

// The walk is synchronous and not reentrant: one point's findings live here, not in a new object per point.
/** The end's and the start's fixed64 halves of the last point read: end low, end high, start low, start high. */
const times = new Uint32Array(4);
const NOT_SEEN = -2;
const NOT_ALLOWED = -1;
/** Per required attribute of the rule: NOT_SEEN, NOT_ALLOWED or the index of its allowed value. */
const found = new Int32Array(MAX_REQUIRED_ATTRIBUTES);
/** Per required attribute: its string value's offsets, -1 when it was not a string. */
const foundStart = new Int32Array(MAX_REQUIRED_ATTRIBUTES);
const foundEnd = new Int32Array(MAX_REQUIRED_ATTRIBUTES);
const keyValue = keyValueRange();

function startPoint(rule: MetricRule): void {
  times.fill(0);
  found.fill(NOT_SEEN, 0, rule.attributes.length);
}

/** Reads a fixed64 time into `times[at]`, `times[at + 1]`. */
function readTime(reader: WireReader, at: number): void {
  times[at] = reader.fixed32();
  times[at + 1] = reader.fixed32();
}

/** Reads one KeyValue of a data point; the first of each required key counts (as `find` would). */
function readPointAttribute(reader: WireReader, depth: number, rule: MetricRule): void {
  readKeyValue(reader, depth, keyValue);
  const { attributes } = rule;
  for (let a = 0; a < attributes.length; a++) {
    if (found[a] !== NOT_SEEN || !bytesEqual(reader.buf, keyValue.keyStart, keyValue.keyEnd, attributes[a].keyBytes)) continue;
    found[a] = NOT_ALLOWED;
    foundStart[a] = keyValue.stringStart;
    foundEnd[a] = keyValue.stringEnd;
    if (keyValue.stringStart >= 0) {
      const allowed = attributes[a].allowedBytes;
      for (let v = 0; v < allowed.length; v++) {
        if (bytesEqual(reader.buf, keyValue.stringStart, keyValue.stringEnd, allowed[v])) {
          found[a] = v;
          break;
        }
      }
    }
    return;
  }
}

function checkAttributes(reader: WireReader, rule: MetricRule, place: MetricPlace): void {
  for (let a = 0; a < rule.attributes.length; a++) {
    if (found[a] >= 0) continue;
    const { key, allowed } = rule.attributes[a];
    // A value that is absent or not a string reads as '' (its default), which no list allows.
    const value = found[a] === NOT_ALLOWED && foundStart[a] >= 0 ? utf8Text(reader.buf, foundStart[a], foundEnd[a]) : '';
    reject(`${place.pointAt()}: ${key} '${value}' is not ${allowed.join(', ')}`);
  }
}

const NO_VALUE = 0;
const DOUBLE = 1;
const INT = 2;

function checkNumberPoint(reader: WireReader, depth: number, rule: MetricRule, max: bigint, place: MetricPlace): void {
  const end = messageEnd(reader, depth);
  startPoint(rule);
  let kind = NO_VALUE;
  let double = 0;
  let low = 0;
  let high = 0;
  while (reader.pos < end) {
    const tag = nextTag(reader);
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (field === 7 && wireType === WireType.LEN) readPointAttribute(reader, depth + 1, rule);
    else if (field === 2 && wireType === WireType.I64) readTime(reader, 2);
    else if (field === 3 && wireType === WireType.I64) readTime(reader, 0);
    else if (field === 4 && wireType === WireType.I64) {
      kind = DOUBLE;
      double = reader.double();
    } else if (field === 6 && wireType === WireType.I64) {
      kind = INT;
      low = reader.fixed32();
      high = reader.sfixed32();
    } else if (field === NUMBER_EXEMPLARS && wireType === WireType.LEN) skimMessage(reader, messageEnd(reader, depth + 1), EXEMPLAR, depth + 1);
    else reader.skipType(wireType, depth, field);
  }
  closeMessage(reader, end);
  checkAttributes(reader, rule, place);
  if (kind === DOUBLE) {
    if (!Number.isFinite(double)) {
      reject(`${place.pointAt()}: value ${double} is not a finite number`);
    }
    if (double < 0) {
      reject(`${place.pointAt()}: negative value ${double}`);
    }
    const rounded = Math.round(double);
    if (rounded > Number(max)) aboveLimit(BigInt(rounded), max, 'value', place);
  } else if (kind === INT) {
    if (high < 0) {
      reject(`${place.pointAt()}: negative value ${BigInt.asIntN(64, fixed64(low, high))}`);
    }
    const value = fixed64(low, high);
    if (value > max) aboveLimit(value, max, 'value', place);
  } else {
    reject(`${place.pointAt()}: data point without a value`);
  }
}

function aboveLimit(value: bigint, max: bigint, what: string, place: MetricPlace): never {
  reject(`${place.pointAt()}: ${what} ${value} is above the limit ${max} (proto/METRICS.md "Limits")`);
}

/** The high half of the largest bucket count, {@link MAX_DELTA_VALUE} (2^48 - 1): any low half fits. */
const MAX_BUCKET_COUNT_HIGH = Number(MAX_DELTA_VALUE >> 32n);

/** What a histogram point's bounds and bucket counts showed, gathered as they are read. */
class HistogramFindings {
  boundCount = 0;
  boundsDiffer = false;
  /** The first three bounds read one by one, for an error. */
  private readonly firstBounds: number[] = [];
  /** Whether the first bounds were the fixed ones, compared as bytes. */
  private firstFixed = false;
  bucketCount = 0;
  /** The first bucket count above the limit, as fixed64 halves (`aboveHigh` -1: none). */
  aboveLow = 0;
  aboveHigh = -1;
  private bounds: MetricRule['bounds'];

  reset(bounds: MetricRule['bounds']): void {
    this.bounds = bounds;
    this.boundCount = 0;
    this.boundsDiffer = false;
    this.firstBounds.length = 0;
    this.firstFixed = false;
    this.bucketCount = 0;
    this.aboveHigh = -1;
  }

  /** The first three bounds, for an error. */
  firstThree(): readonly number[] {
    return this.firstFixed && this.bounds ? this.bounds.values.slice(0, 3) : this.firstBounds;
  }

  bound(value: number): void {
    if (this.boundCount < 3) this.firstBounds.push(value);
    if (this.bounds && value !== this.bounds.values[this.boundCount]) this.boundsDiffer = true;
    this.boundCount += 1;
  }

  bucket(low: number, high: number): void {
    if (high > MAX_BUCKET_COUNT_HIGH && this.aboveHigh < 0) {
      this.aboveLow = low;
      this.aboveHigh = high;
    }
    this.bucketCount += 1;
  }

  /** Reads packed bucket counts up to `end`: a count fits when its two high bytes are 0 (little-endian). */
  packedBuckets(reader: WireReader, end: number): void {
    const bytes = reader.buf;
    const start = reader.pos;
    for (let p = start; p < end; p += 8) {
      if ((bytes[p + 6] | bytes[p + 7]) !== 0 && this.aboveHigh < 0) {
        reader.pos = p;
        this.aboveLow = reader.fixed32();
        this.aboveHigh = reader.fixed32();
      }
    }
    this.bucketCount += (end - start) / 8;
    reader.pos = end;
  }

  /** Reads packed bounds up to `end`: when they are the first and their bytes are the fixed bounds' encoding, at once. */
  packedBounds(reader: WireReader, end: number): void {
    const fixed = this.bounds;
    if (fixed && this.boundCount === 0 && end - reader.pos === fixed.packed.length && fixed.packed.compare(reader.buf, reader.pos, end) === 0) {
      this.boundCount = fixed.values.length;
      this.firstFixed = true;
      reader.pos = end;
      return;
    }
    if (!fixed) {
      // Bounds of a histogram without fixed ones are not checked: only counted.
      this.boundCount += (end - reader.pos) / 8;
      reader.pos = end;
      return;
    }
    while (reader.pos < end) this.bound(reader.double());
  }
}

const histogram = new HistogramFindings();

function checkHistogramPoint(reader: WireReader, depth: number, rule: MetricRule, place: MetricPlace): void {
  const end = messageEnd(reader, depth);
  startPoint(rule);
  histogram.reset(rule.bounds);
  let hasSum = false;
  let sum = 0;
  while (reader.pos < end) {
    const tag = nextTag(reader);
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (field === 9 && wireType === WireType.LEN) readPointAttribute(reader, depth + 1, rule);
    else if (field === 2 && wireType === WireType.I64) readTime(reader, 2);
    else if (field === 3 && wireType === WireType.I64) readTime(reader, 0);
    else if (field === 5 && wireType === WireType.I64) {
      hasSum = true;
      sum = reader.double();
    } else if (field === 6 && wireType === WireType.I64) histogram.bucket(reader.fixed32(), reader.fixed32());
    else if (field === 6 && wireType === WireType.LEN) histogram.packedBuckets(reader, packedEnd(reader, 8));
    else if (field === 7 && wireType === WireType.I64) histogram.bound(reader.double());
    else if (field === 7 && wireType === WireType.LEN) histogram.packedBounds(reader, packedEnd(reader, 8));
    else if (field === HISTOGRAM_EXEMPLARS && wireType === WireType.LEN) skimMessage(reader, messageEnd(reader, depth + 1), EXEMPLAR, depth + 1);
    else reader.skipType(wireType, depth, field);
  }
  closeMessage(reader, end);
  if (rule.withoutSum && hasSum) {
    reject(`${place.pointAt()}: a seek distance histogram has no sum (its values are signed)`);
  }
  checkAttributes(reader, rule, place);
  if (rule.bounds) {
    const fixed = rule.bounds.values;
    if (histogram.boundsDiffer || histogram.boundCount !== fixed.length) {
      reject(`${place.pointAt()}: explicit_bounds (${histogram.boundCount} of them, first ${histogram.firstThree().join(', ')}) are not ${rule.bounds.name}`);
    }
    if (histogram.bucketCount !== fixed.length + 1) {
      reject(`${place.pointAt()}: ${histogram.bucketCount} bucket counts, expected ${fixed.length + 1}`);
    }
  }
  if (histogram.aboveHigh >= 0) aboveLimit(fixed64(histogram.aboveLow, histogram.aboveHigh), MAX_DELTA_VALUE, 'bucket count', place);
  if (hasSum && !(Number.isFinite(sum) && sum >= 0)) {
    reject(`${place.pointAt()}: sum ${sum} is not a finite number >= 0`);
  }
}

const BUCKETS = 'opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint.Buckets';

/** Reads an exponential histogram point's times, checking only that it is a valid message. */
function readExponentialPoint(reader: WireReader, depth: number, rule: MetricRule): void {
  const end = messageEnd(reader, depth);
  startPoint(rule);
  while (reader.pos < end) {
    const tag = nextTag(reader);
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (field === 1 && wireType === WireType.LEN) readKeyValue(reader, depth + 1, keyValue);
    else if (field === 2 && wireType === WireType.I64) readTime(reader, 2);
    else if (field === 3 && wireType === WireType.I64) readTime(reader, 0);
    else if ((field === 8 || field === 9) && wireType === WireType.LEN) skimMessage(reader, messageEnd(reader, depth + 1), BUCKETS, depth + 1);
    else if (field === 11 && wireType === WireType.LEN) skimMessage(reader, messageEnd(reader, depth + 1), EXEMPLAR, depth + 1);
    else reader.skipType(wireType, depth, field);
  }
  closeMessage(reader, end);
}
