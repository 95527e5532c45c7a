/**
 * Records what the real agent sends for one trace: runs `tierwise-agent replay` against a
 * loopback HTTP server that answers like ingest and keeps every request body.
 *
 * captureBatches({agentBin, trace, workDir}) -> {metrics: Buffer[], refs: Buffer[]}
 *   metrics: OTLP ExportMetricsServiceRequest bodies (POST /v1/metrics), in send order
 *   refs:    tierwise.v1.ReferenceBatch bodies (POST /v1/refs), in send order
 * Throws when the replay exits non-zero or sends nothing.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export async function captureBatches({ agentBin, trace, workDir }) {
  const batches = { metrics: [], refs: [] };
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const kind = request.url === '/v1/metrics' ? 'metrics' : request.url === '/v1/refs' ? 'refs' : null;
      if (kind) batches[kind].push(Buffer.concat(chunks));
      response.writeHead(kind ? 200 : 404, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address();
    await run(agentBin, [
      'replay', trace, '--ingest', `http://127.0.0.1:${port}`, '--token', 'capture',
      '--key-file', path.join(workDir, 'agent.key'), '--spool-dir', path.join(workDir, 'spool'),
    ], { maxBuffer: 64 * 1024 * 1024 });
  } finally {
    server.close();
  }
  if (batches.metrics.length === 0) throw new Error(`the agent sent no metrics for ${trace}`);
  return batches;
}
