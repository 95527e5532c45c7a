/**
 * Closed-loop load: each simulated agent sends its batches one after another (as a real
 * agent's sender does), round after round, until the duration is over.
 *
 * runLoad({url, corpora, seconds, kinds}) -> {requests, statuses, latency, seconds}
 *   corpora:  one remapped corpus per agent (remap.mjs)
 *   kinds:    ['metrics'] or ['metrics', 'refs'] (what to send)
 *   statuses: count per HTTP status ('error' for a network failure)
 *   latency:  an HdrHistogram of request latencies, microseconds
 */
import { randomUUID } from 'node:crypto';
import hdr from 'hdr-histogram-js';
import proto from '@tierwise/proto';

const { BATCH_ID_HEADER, ReferenceBatch } = proto;

async function post(url, token, body, batchId) {
  const headers = { 'content-type': 'application/x-protobuf' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (batchId) headers[BATCH_ID_HEADER] = batchId;
  try {
    const response = await fetch(url, { method: 'POST', headers, body });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 'error';
  }
}

export async function runLoad({ url, corpora, seconds, kinds }) {
  const latency = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 });
  const statuses = {};
  let requests = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  async function agent(corpus) {
    const sends = [
      ...(kinds.includes('metrics') ? corpus.metrics.map((m) => () => post(`${url}/v1/metrics`, corpus.token, m.body, randomUUID())) : []),
      ...(kinds.includes('refs')
        ? corpus.refs.map((r) => () => {
            // A fresh batch id per send: ingest deduplicates by it.
            const batch = ReferenceBatch.decode(r.body);
            batch.batchId = randomUUID();
            return post(`${url}/v1/refs`, corpus.token, Buffer.from(ReferenceBatch.encode(batch)));
          })
        : []),
    ];
    while (performance.now() < deadline) {
      for (const send of sends) {
        if (performance.now() >= deadline) return;
        const t0 = performance.now();
        const status = await send();
        latency.recordValue(Math.max(1, Math.round((performance.now() - t0) * 1000)));
        statuses[status] = (statuses[status] ?? 0) + 1;
        requests += 1;
      }
    }
  }
  await Promise.all(corpora.map(agent));
  return { requests, statuses, latency, seconds: (performance.now() - started) / 1000 };
}
