import { ATTR, ExportMetricsServiceRequest, INTERARRIVAL_BOUNDS_US, type MessageInput, METRIC, type Metric, OUTSTANDING_IOS_BOUNDS, resourceMetricsSlices, SEEK_DISTANCE_BOUNDS_SECTORS } from '@tierwise/proto';
import { describe, expect, it } from 'vitest';
import { metricsRequest, testVolume } from '../../../test/support/telemetry-fixtures.js';
import { validateMetricsRequest } from './metrics-request.js';

const NOW = BigInt(Date.now()) * 1_000_000n;
const MINUTE = 60n * 1_000_000_000n;

function decoded(volumes = [testVolume()], endUnixNano = NOW) {
  return ExportMetricsServiceRequest.decode(metricsRequest(volumes, endUnixNano));
}

/** What ingest validates: the request's ResourceMetrics as bytes. */
function view(request: MessageInput<ExportMetricsServiceRequest>) {
  return resourceMetricsSlices(ExportMetricsServiceRequest.encode(request));
}

describe('validateMetricsRequest', () => {
  it('returns each volume with its ids, and names only when the host sent them', () => {
    const named = testVolume({ hostName: 'esx-07', volumeName: 'sql-data', clusterId: 'c0ffee0123456789' });
    const anonymous = testVolume();
    const volumes = validateMetricsRequest(view(decoded([named, anonymous])), NOW);
    expect(volumes).toEqual([
      { hostId: named.hostId, volumeId: named.volumeId, hostName: 'esx-07', volumeName: 'sql-data', clusterId: 'c0ffee0123456789', source: 'agent' },
      { hostId: anonymous.hostId, volumeId: anonymous.volumeId, hostName: null, volumeName: null, clusterId: null, source: 'agent' },
    ]);
  });

  it('takes tierwise.volume.source vscsistats for imported output and refuses any other value', () => {
    expect(validateMetricsRequest(view(decoded([testVolume({ source: 'vscsistats' })])), NOW)[0].source).toBe('vscsistats');
    expect(() => validateMetricsRequest(view(decoded([testVolume({ source: 'agent' })])), NOW)).toThrow(
      /resourceMetrics\[0\] resource attribute tierwise\.volume\.source 'agent' is not vscsistats/,
    );
  });

  it('takes tierwise.cluster.id only as a pseudonymous id, never a cluster name', () => {
    expect(() => validateMetricsRequest(view(decoded([testVolume({ clusterId: 'prod-cluster-a' })])), NOW)).toThrow(
      /resourceMetrics\[0\] resource attribute tierwise\.cluster\.id must be 8-64 lowercase hex characters, got "prod-cluster-a"/,
    );
  });

  it('refuses a request without volumes and one with more than 1000', () => {
    expect(() => validateMetricsRequest(view({ resourceMetrics: [] }), NOW)).toThrow('request holds no ResourceMetrics');
    const one = decoded().resourceMetrics[0];
    const tooMany = { resourceMetrics: new Array(1001).fill(one) };
    expect(() => validateMetricsRequest(view(tooMany), NOW)).toThrow('request holds 1001 ResourceMetrics; at most 1000');
  });

  it('requires host.id and tierwise.volume.id as lowercase hex', () => {
    const request = decoded();
    const attributes = request.resourceMetrics[0].resource!.attributes;
    attributes.splice(attributes.findIndex((a) => a.key === ATTR.volumeId), 1);
    expect(() => validateMetricsRequest(view(request), NOW)).toThrow('resourceMetrics[0] resource attribute tierwise.volume.id is missing');

    const upper = decoded([{ hostId: 'ABCDEF0123456789', volumeId: '0123456789abcdef' }]);
    expect(() => validateMetricsRequest(view(upper), NOW)).toThrow(/host\.id must be 8-64 lowercase hex characters, got "ABCDEF0123456789"/);
  });

  it('refuses metric names that proto/METRICS.md does not list, and the wrong data kind', () => {
    const unknown = decoded();
    unknown.resourceMetrics[0].scopeMetrics[0].metrics[1].name = 'system.disk.io';
    expect(() => validateMetricsRequest(view(unknown), NOW)).toThrow(
      /resourceMetrics\[0\]\.scopeMetrics\[0\]\.metrics\[1\] "system\.disk\.io": unknown metric name; proto\/METRICS\.md lists tierwise\.io\.operations/,
    );
    const wrongKind = decoded();
    wrongKind.resourceMetrics[0].scopeMetrics[0].metrics[0].name = METRIC.ioSize;
    expect(() => validateMetricsRequest(view(wrongKind), NOW)).toThrow(/"tierwise\.io\.size": must be a histogram/);
  });

  it('accepts the vscsiStats families with their own bounds, io.direction all among them, and seek distances without a sum', () => {
    const request = decoded();
    const metrics = request.resourceMetrics[0].scopeMetrics[0].metrics;
    const size = metrics.find((m) => m.name === METRIC.ioSize)!;
    const directionAttribute = size.histogram!.dataPoints[0].attributes.find((a) => a.key === ATTR.ioDirection)!;
    const family = (name: string, bounds: readonly number[], directions: string[], sum: number | undefined): Metric => ({
      ...size,
      name,
      histogram: {
        ...size.histogram!,
        dataPoints: directions.map((direction) => ({
          ...size.histogram!.dataPoints[0],
          sum,
          explicitBounds: [...bounds],
          bucketCounts: [3n, ...bounds.map(() => 0n)],
          count: 3n,
          attributes: [{ ...directionAttribute, value: { ...directionAttribute.value!, stringValue: direction } }],
        })),
      },
    });
    metrics.push(
      family(METRIC.ioSeekDistance, SEEK_DISTANCE_BOUNDS_SECTORS, ['all', 'read', 'write'], undefined),
      family(METRIC.ioSeekDistanceClosest, SEEK_DISTANCE_BOUNDS_SECTORS, ['all'], undefined),
      family(METRIC.ioOutstanding, OUTSTANDING_IOS_BOUNDS, ['all', 'read', 'write'], 3),
      family(METRIC.ioInterarrival, INTERARRIVAL_BOUNDS_US, ['all', 'read', 'write'], 30),
    );
    expect(() => validateMetricsRequest(view(request), NOW)).not.toThrow();
  });

  it('refuses a resource attribute that is not a string', () => {
    const request = decoded();
    const hostId = request.resourceMetrics[0].resource!.attributes.find((a) => a.key === ATTR.hostId)!;
    hostId.value = { intValue: 7n };
    expect(() => validateMetricsRequest(view(request), NOW)).toThrow('resourceMetrics[0] resource attribute host.id must be a string');
  });

  it('takes a value of 0 as a value and refuses a data point without one', () => {
    const request = decoded();
    const point = request.resourceMetrics[0].scopeMetrics[0].metrics.find((m) => m.sum)!.sum!.dataPoints[0];
    delete point.asInt;
    point.asDouble = 0;
    expect(() => validateMetricsRequest(view(request), NOW)).not.toThrow();
    delete point.asDouble;
    expect(() => validateMetricsRequest(view(request), NOW)).toThrow(/\.dataPoints\[0\]: data point without a value/);
  });

  it('refuses data points more than 5 minutes ahead or 30 days old', () => {
    expect(() => validateMetricsRequest(view(decoded(undefined, NOW + 6n * MINUTE)), NOW)).toThrow(/time_unix_nano \d+ is 360 s in the future/);
    expect(() => validateMetricsRequest(view(decoded(undefined, NOW + 4n * MINUTE)), NOW)).not.toThrow();
    expect(() => validateMetricsRequest(view(decoded(undefined, NOW - 31n * 24n * 60n * MINUTE)), NOW)).toThrow(/is 2678400 s old \(at most 30 days/);
  });
});
