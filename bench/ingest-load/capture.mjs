/**
 * Records what the real agent sends for one trace: runs `tierwise-agent replay` against a
 * loopback HTTP server that answers like ingest and keeps every request body.
 *
 * captureBatches({agentBin, trace, workDir, args}) -> {metrics: Buffer[], refs: Buffer[]}
 *   args: more arguments of the replay (default none)
 *   metrics: OTLP ExportMetricsServiceRequest bodies (POST /v1/metrics), in send order
 *   refs:    tierwise.v1.ReferenceBatch bodies, in send order: each batch of the agent's
 *            POST /v1/refs/batches requests (a host's batches together) on its own, the body a
 *            POST /v1/refs of that batch alone carries
 * Throws when the replay exits non-zero or sends nothing.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { referenceBatchSlices } from '@tierwise/proto';

const run = promisify(execFile);

export async function captureBatches({ agentBin, trace, workDir, args = [] }) {
  const batches = { metrics: [], refs: [] };
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const kind = request.url === '/v1/metrics' ? 'metrics' : request.url === '/v1/refs/batches' ? 'refs' : null;
      if (kind === 'metrics') batches.metrics.push(body);
      if (kind === 'refs') batches.refs.push(...referenceBatchSlices(body).map((slice) => Buffer.from(slice)));
      response.writeHead(kind ? 200 : 404, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address();
    await run(agentBin, [
      'replay', trace, '--ingest', `http://127.0.0.1:${port}`, '--token', 'capture',
      '--key-file', path.join(workDir, 'agent.key'), '--spool-dir', path.join(workDir, 'spool'), ...args,
    ], { maxBuffer: 64 * 1024 * 1024 });
  } finally {
    server.close();
  }
  if (batches.metrics.length === 0) throw new Error(`the agent sent no metrics for ${trace}`);
  return batches;
}
