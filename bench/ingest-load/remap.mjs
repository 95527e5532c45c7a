/**
 * Makes one captured trace look like N different agents: the pseudonymous host and volume
 * ids (OTLP resource attributes `host.id` and `tierwise.volume.id`, ReferenceBatch host_id and
 * volume_id) are replaced by SHA-256(agent index, id) truncated to the original length, and
 * every batch gets a fresh batch id, so ingest accepts each agent's copy as new data.
 *
 * remapCorpus(batches, agentIndex) -> {metrics: {body, batchId}[], refs: {body}[]}
 */
import { createHash, randomUUID } from 'node:crypto';
import proto from '@tierwise/proto';

const { ExportMetricsServiceRequest, ReferenceBatch } = proto;
const ID_ATTRIBUTES = new Set(['host.id', 'tierwise.volume.id']);

function remapId(agentIndex, id) {
  return createHash('sha256').update(`${agentIndex}/${id}`).digest('hex').slice(0, id.length);
}

export function remapCorpus(batches, agentIndex) {
  const metrics = batches.metrics.map((body) => {
    const request = ExportMetricsServiceRequest.decode(body);
    for (const resourceMetrics of request.resourceMetrics) {
      for (const attribute of resourceMetrics.resource?.attributes ?? []) {
        if (ID_ATTRIBUTES.has(attribute.key) && attribute.value?.stringValue) {
          attribute.value.stringValue = remapId(agentIndex, attribute.value.stringValue);
        }
      }
    }
    return { body: Buffer.from(ExportMetricsServiceRequest.encode(request)), batchId: randomUUID() };
  });
  const refs = batches.refs.map((body) => {
    const batch = ReferenceBatch.decode(body);
    batch.batchId = randomUUID();
    batch.hostId = remapId(agentIndex, batch.hostId);
    batch.volumeId = remapId(agentIndex, batch.volumeId);
    return { body: Buffer.from(ReferenceBatch.encode(batch)) };
  });
  return { metrics, refs };
}
