/**
 * Ingest reads a request's bytes as protobuf-java parses them (the metrics job's parser): what
 * protobuf-java refuses is refused, fields repeated on the wire merge as it merges them, and a
 * field with another wire type than its declared one is an unknown field
 * (protobuf.dev/programming-guides/encoding). stream-jobs OtlpMetricsParserTest shows the same
 * bytes refused there.
 */
import { ATTR, METRIC, resourceMetricsSlices, schema } from '@tierwise/proto';
import { describe, expect, it } from 'vitest';
import { metricsRequest, testVolume } from '../../../test/support/telemetry-fixtures.js';
import { validateMetricsRequest } from './metrics-request.js';

const NOW = BigInt(Date.now()) * 1_000_000n;
const SECOND = 1_000_000_000n;

/** One valid volume's ResourceMetrics bytes, its interval ending at NOW. */
const volume = (): Buffer => Buffer.from(resourceMetricsSlices(metricsRequest([testVolume()], NOW))[0]);

const varint = (n: number): number[] => {
  const out: number[] = [];
  for (; n > 127; n >>>= 7) out.push((n & 127) | 128);
  out.push(n);
  return out;
};
/** Field `number` holding `bytes` (length-delimited). */
const field = (number: number, bytes: Uint8Array): Buffer => Buffer.from([...varint((number << 3) | 2), ...varint(bytes.length), ...bytes]);
const encode = (type: string, value: object): Uint8Array => {
  const t = schema().lookupType(type);
  return t.encode(t.fromObject(value)).finish();
};
const metric = (value: object): Uint8Array => encode('opentelemetry.proto.metrics.v1.Metric', value);
/** A ResourceMetrics field holding one ScopeMetrics of `metricBytes` (appended to a volume, its metrics grow). */
const scopeWith = (metricBytes: Uint8Array): Buffer => field(2, field(2, metricBytes));

const point = {
  attributes: [{ key: ATTR.ioDirection, value: { stringValue: 'read' } }],
  startTimeUnixNano: String(NOW - 10n * SECOND),
  timeUnixNano: String(NOW),
  asInt: '5',
};
const hits = { name: METRIC.cacheHits, sum: { aggregationTemporality: 1, dataPoints: [point] } };
const validate = (...slices: Uint8Array[]) => validateMetricsRequest(slices, NOW + SECOND);

describe('validateMetricsRequest on the wire', () => {
  it('accepts a volume with a metric appended and with an unknown field', () => {
    expect(validate(Buffer.concat([volume(), scopeWith(metric(hits))]))).toHaveLength(1);
    expect(validate(Buffer.concat([volume(), Buffer.from([...varint((99 << 3) | 0), 7])]))).toHaveLength(1);
  });

  it('refuses a string that is not UTF-8 where protobufjs would have read it', () => {
    const described = Buffer.from(metric({ ...hits, description: 'ÿÿ' }));
    described.set([0xff, 0xfe, 0xfd, 0xfc], described.indexOf(Buffer.from('ÿÿ')));
    expect(() => validate(Buffer.concat([volume(), scopeWith(described)]))).toThrow(
      /^body is not a valid ExportMetricsServiceRequest \(resourceMetrics\[0\]\): a string at offset \d+ is not valid UTF-8$/,
    );
  });

  it('refuses a field that runs past the end of its message', () => {
    const name = metric({ name: 'abc' });
    const short = Buffer.from([...varint((2 << 3) | 2), name.length - 2, ...name]);
    expect(() => validate(Buffer.concat([volume(), field(2, short)]))).toThrow(/runs past the end of its message/);
    expect(() => validate(volume().subarray(0, 100))).toThrow(/^body is not a valid ExportMetricsServiceRequest \(resourceMetrics\[0\]\)/);
  });

  it('takes a known field with another wire type as unknown', () => {
    const asVarint = Buffer.concat([Buffer.from(encode('opentelemetry.proto.metrics.v1.NumberDataPoint', { ...point, asInt: undefined })), Buffer.from([(6 << 3) | 0, 5])]);
    const sum = Buffer.concat([field(1, asVarint), Buffer.from([(2 << 3) | 0, 1])]);
    const bytes = Buffer.concat([field(1, Buffer.from(METRIC.cacheHits)), field(7, sum)]);
    expect(() => validate(Buffer.concat([volume(), scopeWith(bytes)]))).toThrow(/\.dataPoints\[0\]: data point without a value/);
  });

  it('merges a metric data member repeated on the wire, and the member set last wins', () => {
    const gauge = metric({ name: METRIC.cacheHits, gauge: { dataPoints: [point] } });
    const sum = metric({ sum: hits.sum });
    expect(validate(Buffer.concat([volume(), scopeWith(Buffer.concat([gauge, sum]))]))).toHaveLength(1);
    expect(() => validate(Buffer.concat([volume(), scopeWith(Buffer.concat([sum, gauge]))]))).toThrow(/"tierwise\.cache\.hits": must be a sum/);
    const negative = metric({ sum: { dataPoints: [{ ...point, asInt: '-1' }] } });
    expect(() => validate(Buffer.concat([volume(), scopeWith(Buffer.concat([metric(hits), negative]))]))).toThrow(/\.dataPoints\[1\]: negative value -1/);
  });

  it('merges a repeated resource: its attributes add up and the first of a key counts', () => {
    const otherHost = field(1, encode('opentelemetry.proto.resource.v1.Resource', { attributes: [{ key: ATTR.hostId, value: { stringValue: 'NOT-HEX' } }] }));
    expect(validate(Buffer.concat([volume(), otherHost]))).toHaveLength(1);
    expect(() => validate(Buffer.concat([otherHost, volume()]))).toThrow(/host\.id must be 8-64 lowercase hex characters, got "NOT-HEX"/);
  });

  it('refuses messages nested deeper than protobuf-java parses', () => {
    let nested: Uint8Array = encode('opentelemetry.proto.common.v1.AnyValue', { stringValue: 'x' });
    for (let i = 0; i < 60; i++) {
      nested = field(6, field(1, Buffer.concat([field(1, Buffer.from('k')), field(2, nested)])));
    }
    const resource = field(1, field(1, Buffer.concat([field(1, Buffer.from('deep')), field(2, nested)])));
    expect(() => validate(Buffer.concat([volume(), resource]))).toThrow(/messages nest more than 100 deep/);
  });
});
