import {
  AggregationTemporality,
  ALIGNMENT_BOUNDS_SECTORS,
  ALIGNMENT_LAYOUTS,
  ATTR,
  CONSUMER_CPU_MODES,
  CONSUMER_KINDS,
  HOST_CPU_MODES,
  type HistogramDataPoint,
  IO_DIRECTIONS,
  IO_LENGTH_BINS,
  IO_LENGTH_BOUNDS_BYTES,
  INTERARRIVAL_BOUNDS_US,
  IO_SOURCES,
  isSet,
  type KeyValue,
  LATENCY_BOUNDS_US,
  type Long,
  longToBigInt,
  longToNumber,
  MAX_DELTA_VALUE,
  MAX_GAUGE_VALUE,
  type MessageView,
  METRIC,
  type Metric,
  type MetricName,
  type NumberDataPoint,
  OUTSTANDING_IOS_BOUNDS,
  SEEK_DISTANCE_BOUNDS_SECTORS,
  VSCSI_DIRECTIONS,
  VSCSI_LATENCY_BOUNDS_US,
} from '@tierwise/proto';
import { reject } from './validation.js';

/** An attribute a data point must carry, with its allowed values. */
type Required = Readonly<Record<string, readonly string[]>>;
const DIRECTION: Required = { [ATTR.ioDirection]: IO_DIRECTIONS };
const DIRECTION_SOURCE: Required = { ...DIRECTION, [ATTR.ioSource]: IO_SOURCES };
const VSCSI_DIRECTION: Required = { [ATTR.ioDirection]: VSCSI_DIRECTIONS };

/** The data point attributes each metric must carry, with their allowed values (proto/METRICS.md "Metrics"). */
const REQUIRED_ATTRIBUTES: Partial<Record<MetricName, Required>> = {
  [METRIC.ioOperations]: DIRECTION_SOURCE,
  [METRIC.ioBytes]: DIRECTION_SOURCE,
  [METRIC.ioSize]: DIRECTION,
  [METRIC.ioSizeBytes]: { ...DIRECTION, [ATTR.ioSizeBin]: IO_LENGTH_BINS.map((bin) => bin.label) },
  [METRIC.ioLatency]: { ...DIRECTION_SOURCE, [ATTR.ioSizeBin]: IO_LENGTH_BINS.map((bin) => bin.label) },
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

/** The histograms' fixed bounds (proto/METRICS.md); their bucket counts are one more. */
const HISTOGRAM_BOUNDS: Partial<Record<MetricName, { bounds: readonly number[]; name: string }>> = {
  [METRIC.ioSize]: { bounds: IO_LENGTH_BOUNDS_BYTES, name: 'the vscsiStats ioLength bins' },
  [METRIC.ioLatency]: { bounds: LATENCY_BOUNDS_US, name: 'the latency bounds of METRICS.md' },
  [METRIC.ioSeekDistance]: { bounds: SEEK_DISTANCE_BOUNDS_SECTORS, name: 'the vscsiStats seek distance bounds' },
  [METRIC.ioSeekDistanceClosest]: { bounds: SEEK_DISTANCE_BOUNDS_SECTORS, name: 'the vscsiStats seek distance bounds' },
  [METRIC.ioOutstanding]: { bounds: OUTSTANDING_IOS_BOUNDS, name: 'the vscsiStats outstanding I/O bounds' },
  [METRIC.ioInterarrival]: { bounds: INTERARRIVAL_BOUNDS_US, name: 'the vscsiStats interarrival bounds' },
  [METRIC.ioLatencyVscsiStats]: { bounds: VSCSI_LATENCY_BOUNDS_US, name: 'the vscsiStats latency bounds' },
  [METRIC.ioAlignment]: { bounds: ALIGNMENT_BOUNDS_SECTORS, name: 'the block alignment bounds of METRICS.md' },
};

/**
 * Checks the data points of one metric whose name and kind are already known to be the
 * contract's, as the metrics job's parser would (proto/METRICS.md "Limits"): delta temporality,
 * values and bucket counts within limits, the required attributes with allowed values, the
 * fixed histogram bounds.
 * @param at names the metric in the error, e.g. `resourceMetrics[0]...metrics[2] "tierwise.io.size"`.
 * @throws ApiError invalid_body naming the data point and the problem.
 */
export function checkMetricPoints(metric: MessageView<Metric>, name: MetricName, at: string): void {
  const required = REQUIRED_ATTRIBUTES[name] ?? {};
  if (metric.sum) {
    checkDelta(metric.sum.aggregationTemporality, at);
    metric.sum.dataPoints.forEach((p, i) => checkNumber(p, MAX_DELTA_VALUE, required, `${at}.dataPoints[${i}]`));
  } else if (metric.gauge) {
    metric.gauge.dataPoints.forEach((p, i) => checkNumber(p, MAX_GAUGE_VALUE, required, `${at}.dataPoints[${i}]`));
  } else if (metric.histogram) {
    checkDelta(metric.histogram.aggregationTemporality, at);
    metric.histogram.dataPoints.forEach((p, i) => {
      if (WITHOUT_SUM.has(name) && isSet(p, 'sum')) {
        reject(`${at}.dataPoints[${i}]: a seek distance histogram has no sum (its values are signed)`);
      }
      checkHistogram(p, HISTOGRAM_BOUNDS[name], required, `${at}.dataPoints[${i}]`);
    });
  }
}

function checkDelta(temporality: AggregationTemporality, at: string): void {
  if (temporality !== AggregationTemporality.DELTA) {
    reject(`${at}: temporality ${AggregationTemporality[temporality] ?? temporality} is not delta`);
  }
}

function checkNumber(point: MessageView<NumberDataPoint>, max: bigint, required: Required, at: string): void {
  checkAttributes(point.attributes, required, at);
  if (isSet(point, 'asDouble')) {
    if (!Number.isFinite(point.asDouble)) {
      reject(`${at}: value ${point.asDouble} is not a finite number`);
    }
    if (point.asDouble < 0) {
      reject(`${at}: negative value ${point.asDouble}`);
    }
    checkRange(BigInt(Math.round(point.asDouble)), max, 'value', at);
  } else if (isSet(point, 'asInt')) {
    checkLongRange(point.asInt, max, 'value', at);
  } else {
    reject(`${at}: data point without a value`);
  }
}

function checkHistogram(point: MessageView<HistogramDataPoint>, fixed: { bounds: readonly number[]; name: string } | undefined, required: Required, at: string): void {
  checkAttributes(point.attributes, required, at);
  if (fixed) {
    const { bounds, name } = fixed;
    if (point.explicitBounds.length !== bounds.length || point.explicitBounds.some((b, i) => b !== bounds[i])) {
      reject(`${at}: explicit_bounds (${point.explicitBounds.length} of them, first ${point.explicitBounds.slice(0, 3).join(', ')}) are not ${name}`);
    }
    if (point.bucketCounts.length !== bounds.length + 1) {
      reject(`${at}: ${point.bucketCounts.length} bucket counts, expected ${bounds.length + 1}`);
    }
  }
  for (const count of point.bucketCounts) {
    checkLongRange(count, MAX_DELTA_VALUE, 'bucket count', at);
  }
  if (isSet(point, 'sum') && !(Number.isFinite(point.sum) && point.sum >= 0)) {
    reject(`${at}: sum ${point.sum} is not a finite number >= 0`);
  }
}

/**
 * {@link checkRange} of a decoded 64-bit integer; a value in 0..2^53 - 1 is compared as a number
 * (exact there), any other as a bigint.
 */
function checkLongRange(value: Long, max: bigint, what: string, at: string): void {
  const n = longToNumber(value);
  if (n >= 0 && n <= Number.MAX_SAFE_INTEGER && n <= Number(max)) {
    return;
  }
  checkRange(longToBigInt(value), max, what, at);
}

function checkRange(value: bigint, max: bigint, what: string, at: string): void {
  if (value < 0n) {
    reject(`${at}: negative ${what} ${value}`);
  }
  if (value > max) {
    reject(`${at}: ${what} ${value} is above the limit ${max} (proto/METRICS.md "Limits")`);
  }
}

function checkAttributes(attributes: MessageView<KeyValue>[], required: Required, at: string): void {
  for (const [key, allowed] of Object.entries(required)) {
    // A value that is not a string reads as '' (its default), which no list allows.
    const value = attributes.find((a) => a.key === key)?.value?.stringValue ?? '';
    if (!allowed.includes(value)) {
      reject(`${at}: ${key} '${value}' is not ${allowed.join(', ')}`);
    }
  }
}
