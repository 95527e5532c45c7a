/**
 * The batches of proto/testdata/invalid_metrics.json, which the metrics job's parser rejects, are
 * refused by ingest's validation with the same reason; the base batch they are made from passes.
 */
import { ExportMetricsServiceRequest, resourceMetricsSlices } from '@tierwise/proto';
import { describe, expect, it } from 'vitest';
import { BASE_INTERVAL, INVALID_METRICS_CASES, invalidMetricsBatch } from '../../../test/support/invalid-metrics.js';
import { validateMetricsRequest } from './metrics-request.js';

/** What ingest validates: the batch's ResourceMetrics as bytes. */
const view = (request: ExportMetricsServiceRequest) => resourceMetricsSlices(ExportMetricsServiceRequest.encode(request));

/** A second after the base batch's interval ended. */
const NOW = BASE_INTERVAL.end + 1_000_000_000n;

describe('the invalid metrics batches of proto/testdata', () => {
  it('accepts the base batch', () => {
    expect(validateMetricsRequest(view(invalidMetricsBatch()), NOW)).toHaveLength(1);
  });

  it.each(INVALID_METRICS_CASES)('refuses $name', ({ set, reason }) => {
    expect(() => validateMetricsRequest(view(invalidMetricsBatch(set)), NOW)).toThrow(reason);
  });
});
