/**
 * Soak: open-loop load at a fixed rate (batches/s, metrics and reference batches in the
 * agents' order) for a duration, sampling every 10 s the resident memory of each stack
 * process tree. Prints one row per sample and, per process, the growth from the first
 * sample after warm-up (the second) to the last, MiB.
 *
 * soak({url, token, corpora, seconds, rate, pids}) -> {samples, statuses}
 */
import { randomUUID } from 'node:crypto';
import proto from '@tierwise/proto';
import { treeUsage } from './procstat.mjs';

const { BATCH_ID_HEADER, ReferenceBatch } = proto;
const MIB = 1024 * 1024;

export async function soak({ url, token, corpora, seconds, rate, pids }) {
  const sends = corpora.flatMap((corpus) => [
    ...corpus.metrics.map((m) => ({ path: '/v1/metrics', body: m.body, metrics: true })),
    ...corpus.refs.map((r) => ({ path: '/v1/refs', body: r.body, metrics: false })),
  ]);
  const statuses = {};
  const samples = [];
  const sample = () => {
    const row = { t_s: Math.round((performance.now() - started) / 1000) };
    for (const [name, pid] of Object.entries(pids)) row[`${name} MiB`] = Math.round(treeUsage(pid).rssBytes / MIB);
    samples.push(row);
    console.log(JSON.stringify(row));
  };
  const started = performance.now();
  const inFlight = new Set();
  let next = 0;
  sample();
  const sampler = setInterval(sample, 10_000);
  const intervalMs = 1000 / rate;
  while (performance.now() - started < seconds * 1000) {
    const send = sends[next++ % sends.length];
    let body = send.body;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/x-protobuf' };
    if (send.metrics) headers[BATCH_ID_HEADER] = randomUUID();
    else {
      const batch = ReferenceBatch.decode(body);
      batch.batchId = randomUUID();
      body = Buffer.from(ReferenceBatch.encode(batch));
    }
    const request = fetch(`${url}${send.path}`, { method: 'POST', headers, body })
      .then(async (r) => { await r.arrayBuffer(); statuses[r.status] = (statuses[r.status] ?? 0) + 1; }, () => { statuses.error = (statuses.error ?? 0) + 1; })
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
    const due = started + next * intervalMs;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
  }
  await Promise.all(inFlight);
  clearInterval(sampler);
  sample();
  console.log(`soak: ${seconds} s at ${rate} batches/s, statuses ${JSON.stringify(statuses)}`);
  const [, warm] = samples;
  const last = samples.at(-1);
  for (const name of Object.keys(pids)) {
    console.log(`  ${name}: ${warm[`${name} MiB`]} MiB after warm-up -> ${last[`${name} MiB`]} MiB at the end`);
  }
  return { samples, statuses };
}
