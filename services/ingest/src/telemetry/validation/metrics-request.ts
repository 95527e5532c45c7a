import {
  ATTR,
  CACHE_MODES,
  type ExportMetricsServiceRequest,
  isSet,
  type KeyValue,
  longToBigInt,
  type MessageView,
  METRIC_SPECS,
  type MetricName,
  type ResourceMetrics,
  VOLUME_SOURCES,
  type VolumeSource,
} from '@tierwise/proto';
import { MAX_RESOURCE_METRICS } from '../../ingest.constants.js';
import { checkMetricPoints } from './metric-points.js';
import { checkPseudonymousId, checkTimestamp, optionalId, reject } from './validation.js';

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
 * Validates a decoded OTLP ExportMetricsServiceRequest against the agent telemetry contract
 * (proto/METRICS.md): 1 to 1000 ResourceMetrics, each with `host.id` and `tierwise.volume.id`
 * (lowercase hex), `tierwise.cluster.id` when present (lowercase hex), `tierwise.cache.mode` when
 * present one of {@link CACHE_MODES}, `tierwise.volume.source` when present `vscsistats`; only the metric names of METRICS.md, each with its data kind
 * and its data points within METRICS.md "Limits" ({@link checkMetricPoints}); every data point
 * timestamp no more than 5 minutes ahead of now and no more than 30 days old; the points of one
 * interval agreeing on a non-zero start before their time. What passes here the metrics job's
 * parser accepts too (`proto/testdata/invalid_metrics.json` holds the cases both refuse).
 *
 * @param request the request as protobufjs decodes it (`ExportMetricsServiceRequest.decodeMessage`).
 * @param nowUnixNano the receive time, Unix epoch nanoseconds.
 * @returns one entry per ResourceMetrics, in request order.
 * @throws ApiError invalid_body whose message names the first offending element.
 */
export function validateMetricsRequest(request: MessageView<ExportMetricsServiceRequest>, nowUnixNano: bigint): VolumeMetrics[] {
  const count = request.resourceMetrics.length;
  if (count === 0) {
    reject('request holds no ResourceMetrics');
  }
  if (count > MAX_RESOURCE_METRICS) {
    reject(`request holds ${count} ResourceMetrics; at most ${MAX_RESOURCE_METRICS} (one per volume) are accepted`);
  }
  return request.resourceMetrics.map((resourceMetrics, i) => {
    const where = `resourceMetrics[${i}]`;
    const attributes = resourceMetrics.resource?.attributes ?? [];
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
    checkMetrics(resourceMetrics, nowUnixNano, where);
    return volume;
  });
}

function checkMetrics(resourceMetrics: MessageView<ResourceMetrics>, nowUnixNano: bigint, where: string): void {
  /** Interval end (time_unix_nano) -> its start, 0n until a point gives one. */
  const starts = new Map<bigint, bigint>();
  resourceMetrics.scopeMetrics.forEach((scopeMetrics, s) => {
    scopeMetrics.metrics.forEach((metric, m) => {
      const at = `${where}.scopeMetrics[${s}].metrics[${m}] "${metric.name.slice(0, 80)}"`;
      const spec = Object.hasOwn(METRIC_SPECS, metric.name) ? METRIC_SPECS[metric.name as MetricName] : undefined;
      if (!spec) {
        reject(`${at}: unknown metric name; proto/METRICS.md lists ${Object.keys(METRIC_SPECS).join(', ')}`);
      }
      const data = metric[spec.kind];
      if (!data) {
        reject(`${at}: must be a ${spec.kind} (proto/METRICS.md)`);
      }
      checkMetricPoints(metric, metric.name as MetricName, at);
      // Every kind's data points carry the interval's two timestamps.
      const points: readonly { startTimeUnixNano: MessageView<bigint>; timeUnixNano: MessageView<bigint> }[] = data.dataPoints;
      points.forEach((p, i) => {
        const end = longToBigInt(p.timeUnixNano);
        const pointStart = longToBigInt(p.startTimeUnixNano);
        checkTimestamp(end, nowUnixNano, `${at}.dataPoints[${i}].time_unix_nano`);
        const start = starts.get(end) ?? 0n;
        if (pointStart !== 0n && start !== 0n && start !== pointStart) {
          reject(`${at}.dataPoints[${i}]: data points ending at ${end} ns disagree on the start (${start} vs ${pointStart})`);
        }
        starts.set(end, pointStart === 0n ? start : pointStart);
      });
    });
  });
  for (const [end, start] of starts) {
    if (start === 0n || start >= end) {
      reject(`${where}: interval ending at ${end} ns has no valid start_time_unix_nano (${start})`);
    }
  }
}

function stringAttribute(attributes: MessageView<KeyValue>[], key: string, where: string): string | undefined {
  const attribute = attributes.find((candidate) => candidate.key === key);
  if (attribute === undefined) {
    return undefined;
  }
  if (attribute.value === null || !isSet(attribute.value, 'stringValue')) {
    reject(`${where} resource attribute ${key} must be a string`);
  }
  return attribute.value.stringValue;
}

/** `tierwise.volume.source`: absent is the agent; present, only an imported source. */
function sourceOf(attributes: MessageView<KeyValue>[], where: string): VolumeSource {
  const source = stringAttribute(attributes, ATTR.volumeSource, where);
  if (source === undefined) return 'agent';
  const imported = VOLUME_SOURCES.filter((s) => s !== 'agent');
  if (!(imported as readonly string[]).includes(source)) {
    reject(`${where} resource attribute ${ATTR.volumeSource} '${source.slice(0, 80)}' is not ${imported.join(' or ')}`);
  }
  return source as VolumeSource;
}

function optionalName(attributes: MessageView<KeyValue>[], key: string, where: string): string | null {
  const name = stringAttribute(attributes, key, where);
  if (name === undefined || name === '') {
    return null;
  }
  if (name.length > MAX_NAME_LENGTH) {
    reject(`${where} resource attribute ${key} is longer than ${MAX_NAME_LENGTH} characters`);
  }
  return name;
}
