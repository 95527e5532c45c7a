/**
 * The OpenTelemetry Collector as a peer: its OTLP/HTTP receiver on 127.0.0.1 feeding a
 * no-op exporter (decode + batch, nothing written), the closest thing to ingest's
 * decode-validate-publish path without Kafka.
 *
 * startCollector(bin, workDir) -> {url, pid, stop()}   (bin: an otelcol build with the
 *   otlp receiver and the nop exporter; see README.md for how the run in docs was built)
 * Throws when the collector does not answer within 20 s.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startCollector(bin, workDir) {
  const port = await freePort();
  const config = path.join(workDir, 'otelcol.yaml');
  writeFileSync(config, `receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:${port}
exporters:
  nop:
service:
  telemetry:
    metrics:
      level: none
  pipelines:
    metrics:
      receivers: [otlp]
      exporters: [nop]
`);
  const child = spawn(bin, ['--config', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (chunk) => { log += chunk; });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`the collector exited (${child.exitCode}):\n${log.slice(-2000)}`);
    const up = await fetch(`${url}/v1/metrics`, { method: 'POST', headers: { 'content-type': 'application/x-protobuf' }, body: Buffer.alloc(0) })
      .then(() => true, () => false);
    if (up) return { url, pid: child.pid, stop: () => child.kill('SIGTERM') };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the collector did not answer on ${url} within 20 s:\n${log.slice(-2000)}`);
}
