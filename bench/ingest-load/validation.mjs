/**
 * Ingest's metrics validation against protobufjs' decode, on the real agent's bodies, in paired
 * rounds in one process (docs/ingest-load.md "Validation"):
 *
 *   node bench/ingest-load/validation.mjs [--rounds 7] [--passes 5] [--trace FILE]
 *
 * Per body (one OTLP ExportMetricsServiceRequest the agent sent for the trace, capture.mjs): the
 * peer decodes each ResourceMetrics into protobufjs' message (`ResourceMetrics.decodeMessage`,
 * what ingest's validation read until it read the bytes in place) and checks nothing; ingest runs
 * `validateMetricsRequest` on the same slices (every check of proto/METRICS.md). Prints µs per
 * body of each, per round and the medians. Needs `./tierwise setup` (the built agent and ingest).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ExportMetricsServiceRequest, ResourceMetrics, resourceMetricsSlices } from '@tierwise/proto';
import { captureBatches } from './capture.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '7' },
    passes: { type: 'string', default: '5' },
    trace: { type: 'string', default: path.join(process.env.TIERWISE_TRACES_DIR ?? path.resolve(ROOT, '../shared/traces'), 'cloudphysics_w_sample.csv') },
  },
});
const { validateMetricsRequest } = await import(path.join(ROOT, 'services/ingest/dist/telemetry/validation/metrics-request.js'));

const workDir = mkdtempSync(path.join(tmpdir(), 'tierwise-validation-'));
let bodies;
try {
  bodies = (await captureBatches({ agentBin: path.join(ROOT, 'edge-agent/build/tierwise-agent'), trace: args.trace, workDir })).metrics;
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
const slices = bodies.map((body) => resourceMetricsSlices(body));
/** Each body is validated 1 s after its interval ended (the replay's times are the trace's). */
const nowOf = bodies.map((body) => {
  const metric = ExportMetricsServiceRequest.decode(body).resourceMetrics[0].scopeMetrics[0].metrics[0];
  const data = metric.sum ?? metric.gauge ?? metric.histogram ?? metric.exponentialHistogram;
  return data.dataPoints[0].timeUnixNano + 1_000_000_000n;
});
const bytes = bodies.reduce((sum, body) => sum + body.length, 0);
console.log(`${bodies.length} metrics bodies of ${path.basename(args.trace)}, ${Math.round(bytes / bodies.length)} bytes each on average`);

const targets = {
  'protobufjs decode': (i) => slices[i].map((slice) => ResourceMetrics.decodeMessage(slice)),
  'ingest validation': (i) => validateMetricsRequest(slices[i], nowOf[i]),
};
/** µs per body of `target` over `passes` passes through the bodies. */
function time(target, passes) {
  const start = process.hrtime.bigint();
  for (let p = 0; p < passes; p++) for (let i = 0; i < bodies.length; i++) target(i);
  return Number(process.hrtime.bigint() - start) / 1000 / (passes * bodies.length);
}
for (const target of Object.values(targets)) time(target, 3); // warm-up: JIT and schema loading

const rows = [];
for (let round = 1; round <= Number(args.rounds); round++) {
  const order = round % 2 ? Object.keys(targets) : Object.keys(targets).reverse();
  const row = { round };
  for (const name of order) row[name] = time(targets[name], Number(args.passes));
  rows.push(row);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];
console.table(rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, k === 'round' ? v : v.toFixed(1)]))));
const [peer, ours] = Object.keys(targets).map((name) => median(rows.map((row) => row[name])));
console.log(`median µs per body: protobufjs decode ${peer.toFixed(1)}, ingest validation ${ours.toFixed(1)} (ratio ${(peer / ours).toFixed(2)})`);
