/**
 * The OpenTelemetry Collector as a peer: its OTLP/HTTP receiver on 127.0.0.1 feeding
 *   - `kafka` (the peer the docs report): the contrib Kafka exporter writing to the stack's Kafka
 *     with ingest's durability promise: required_acks all (franz-go is then idempotent, like
 *     ingest's producer), zstd record batches, otlp_proto, one record per resource (per volume,
 *     as ingest writes one per volume), and no sending queue, so the receiver answers only
 *     after Kafka acknowledged (the exporter's default queue answers before);
 *   - `nop`: decode and drop, the floor.
 * No batch processor: it too answers before the export.
 *
 * startCollector(bin, workDir, {exporter = 'nop', brokers, topic}) -> {url, pid, config, stop()}
 *   bin: an otelcol build with the otlp receiver and the nop and kafka exporters (README.md has
 *   the builder manifest of the run in docs); brokers: host:port list; topic: must exist
 *   (ensureTopic: the stack's broker does not create topics on use)
 * Throws when the collector does not answer within 20 s.
 * startPeer(bin, workDir, exporter = 'kafka') -> the same, brokers from $TIERWISE_KAFKA_BROKERS,
 *   topic PEER_TOPIC (created with ingest's 4 partitions when missing), plus {exporter, brokers}
 * ensureTopic(brokers, topic, partitions) -> creates `topic` unless it exists (Kafka's own
 *   TopicCommand from the stack's Kafka jars)
 * topicRecords(brokers, topic) -> the sum of the topic's end offsets (records ever written)
 */
import { execFile, spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** The collector's topic: the bench's own, beside ingest's telemetry.metrics.v1 (infra/local/kafka.sh). */
export const PEER_TOPIC = 'bench.otelcol.metrics';
const PEER_PARTITIONS = 4;

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function exporterConfig(exporter, brokers, topic) {
  if (exporter === 'nop') return '  nop:\n';
  if (exporter !== 'kafka') throw new Error(`unknown peer exporter ${exporter} (kafka or nop)`);
  return `  kafka:
    brokers: [${brokers.join(', ')}]
    client_id: tierwise-bench-otelcol
    producer:
      required_acks: all
      compression: zstd
    metrics:
      topic: ${topic}
      encoding: otlp_proto
    partition_metrics_by_resource_attributes: true
    sending_queue:
      enabled: false
`;
}

export async function startCollector(bin, workDir, { exporter = 'nop', brokers = [], topic } = {}) {
  const port = await freePort();
  const config = path.join(workDir, `otelcol-${exporter}.yaml`);
  writeFileSync(config, `receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:${port}
exporters:
${exporterConfig(exporter, brokers, topic)}service:
  telemetry:
    metrics:
      level: none
  pipelines:
    metrics:
      receivers: [otlp]
      exporters: [${exporter}]
`);
  const child = spawn(bin, ['--config', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (chunk) => { log = (log + chunk).slice(-20_000); });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`the collector exited (${child.exitCode}):\n${log.slice(-2000)}`);
    const up = await fetch(`${url}/v1/metrics`, { method: 'POST', headers: { 'content-type': 'application/x-protobuf' }, body: Buffer.alloc(0) })
      .then(() => true, () => false);
    if (up) return { url, pid: child.pid, config, log: () => log, stop: () => child.kill('SIGTERM') };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the collector did not answer on ${url} within 20 s:\n${log.slice(-2000)}`);
}

export async function startPeer(bin, workDir, exporter = 'kafka') {
  const brokers = process.env.TIERWISE_KAFKA_BROKERS.split(',');
  if (exporter === 'kafka') await ensureTopic(brokers, PEER_TOPIC, PEER_PARTITIONS);
  return { ...(await startCollector(bin, workDir, { exporter, brokers, topic: PEER_TOPIC })), exporter, brokers };
}

/** Runs a Kafka command-line class from the stack's Kafka jars (infra/local/kafka.sh gathers them). */
async function kafkaTool(args) {
  const tools = process.env.TIERWISE_TOOLS_DIR;
  const dist = readdirSync(tools).find((name) => /^kafka-[\d.]+$/.test(name));
  if (!dist) throw new Error(`no Kafka jars in ${tools}: start the stack first`);
  const { stdout } = await run('java', ['-Xmx256m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-cp', `${path.join(tools, dist, 'libs')}/*`, ...args]);
  return stdout;
}

export async function ensureTopic(brokers, topic, partitions) {
  await kafkaTool(['org.apache.kafka.tools.TopicCommand', '--bootstrap-server', brokers.join(','), '--create', '--if-not-exists',
    '--topic', topic, '--partitions', String(partitions), '--replication-factor', '1']);
}

export async function topicRecords(brokers, topic) {
  const out = await kafkaTool(['org.apache.kafka.tools.GetOffsetShell', '--bootstrap-server', brokers.join(','), '--topic', topic]);
  // One line per partition: topic:partition:end offset.
  return out.trim().split('\n').filter(Boolean).reduce((sum, line) => sum + Number(line.split(':').pop()), 0);
}
