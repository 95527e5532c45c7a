/**
 * End-to-end freshness: the time from ingest's 200 to a volume's last metrics batch until
 * the API shows that interval (GET /v1/volumes/:id, io.last_interval >= the batch's last
 * interval start), through Kafka, the Flink metrics job and PostgreSQL.
 *
 * measureFreshness({batches, agentIndex, tenant, timeoutSeconds = 120})
 *   -> {volume, batches_sent, freshness_seconds | null (not visible within the timeout)}
 */
import { randomUUID } from 'node:crypto';
import proto from '@tierwise/proto';
import { remapCorpus } from './remap.mjs';

const { BATCH_ID_HEADER, ExportMetricsServiceRequest } = proto;
const env = process.env;

function lastIntervalStart(body) {
  let volumeId = null;
  let startNano = 0n;
  for (const resourceMetrics of ExportMetricsServiceRequest.decode(body).resourceMetrics) {
    volumeId = resourceMetrics.resource.attributes.find((a) => a.key === 'tierwise.volume.id')?.value.stringValue ?? volumeId;
    for (const scope of resourceMetrics.scopeMetrics) {
      for (const metric of scope.metrics) {
        for (const point of metric.sum?.dataPoints ?? metric.histogram?.dataPoints ?? metric.gauge?.dataPoints ?? []) {
          const start = BigInt(point.startTimeUnixNano);
          if (start > startNano) startNano = start;
        }
      }
    }
  }
  return { volumeId, startMs: Number(startNano / 1_000_000n) };
}

export async function measureFreshness({ batches, agentIndex, tenant, timeoutSeconds = 120 }) {
  const corpus = remapCorpus(batches, agentIndex);
  for (const refs of corpus.refs) {
    await fetch(`${env.TIERWISE_INGEST_URL}/v1/refs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.agent_token}`, 'content-type': 'application/x-protobuf' },
      body: refs.body,
    });
  }
  let ackedAt = 0;
  for (const metrics of corpus.metrics) {
    const response = await fetch(`${env.TIERWISE_INGEST_URL}/v1/metrics`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.agent_token}`, 'content-type': 'application/x-protobuf', [BATCH_ID_HEADER]: randomUUID() },
      body: metrics.body,
    });
    if (!response.ok) throw new Error(`freshness: ingest answered ${response.status}: ${await response.text()}`);
    ackedAt = performance.now();
  }
  const { volumeId, startMs } = lastIntervalStart(corpus.metrics.at(-1).body);
  const deadline = ackedAt + timeoutSeconds * 1000;
  while (performance.now() < deadline) {
    const response = await fetch(`${env.TIERWISE_API_URL}/v1/volumes/${volumeId}`, { headers: { authorization: `Bearer ${tenant.api_key}` } });
    if (response.ok) {
      const last = (await response.json()).io?.last_interval;
      if (last && Date.parse(last) >= startMs) {
        return { volume: volumeId, batches_sent: corpus.metrics.length, freshness_seconds: Number(((performance.now() - ackedAt) / 1000).toFixed(2)) };
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { volume: volumeId, batches_sent: corpus.metrics.length, freshness_seconds: null };
}
