/**
 * Open-loop load: batches sent at a fixed rate whatever the answers (unlike a closed loop, a
 * slow server does not slow the offered load), metrics and reference batches in the agents'
 * order, each with a fresh batch id.
 *
 * openLoop({url, corpora, seconds, rate}) -> {statuses, latency, seconds}
 *   rate:     batches per second offered
 *   statuses: count per HTTP status ('error' for a network failure)
 *   latency:  an HdrHistogram of the answered requests' latencies, microseconds
 */
import { randomUUID } from 'node:crypto';
import hdr from 'hdr-histogram-js';
import proto from '@tierwise/proto';

const { BATCH_ID_HEADER, ReferenceBatch } = proto;

export async function openLoop({ url, corpora, seconds, rate }) {
  const sends = corpora.flatMap((corpus) => [
    ...corpus.metrics.map((m) => ({ path: '/v1/metrics', body: m.body, metrics: true, token: corpus.token })),
    ...corpus.refs.map((r) => ({ path: '/v1/refs', body: r.body, metrics: false, token: corpus.token })),
  ]);
  const latency = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 });
  const statuses = {};
  const inFlight = new Set();
  const intervalMs = 1000 / rate;
  const started = performance.now();
  let next = 0;
  while (performance.now() - started < seconds * 1000) {
    const send = sends[next++ % sends.length];
    let body = send.body;
    const headers = { authorization: `Bearer ${send.token}`, 'content-type': 'application/x-protobuf' };
    if (send.metrics) headers[BATCH_ID_HEADER] = randomUUID();
    else {
      const batch = ReferenceBatch.decode(body);
      batch.batchId = randomUUID();
      body = Buffer.from(ReferenceBatch.encode(batch));
    }
    const t0 = performance.now();
    const request = fetch(`${url}${send.path}`, { method: 'POST', headers, body })
      .then(async (r) => {
        await r.arrayBuffer();
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        latency.recordValue(Math.max(1, Math.round((performance.now() - t0) * 1000)));
      }, () => { statuses.error = (statuses.error ?? 0) + 1; })
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
    const due = started + next * intervalMs;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
  }
  await Promise.all(inFlight);
  return { statuses, latency, seconds: (performance.now() - started) / 1000 };
}
