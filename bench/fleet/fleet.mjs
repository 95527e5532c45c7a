/**
 * The fleet: N hosts x M volumes, each host sending, every 10 s at its own phase, one OTLP
 * request with the interval of each of its volumes that saw I/O and then one request with the
 * reference batches its volumes send at that close (POST /v1/refs/batches, a ReferenceBatches of
 * at most 1,000 batches and 4 MiB), as the agent does (VolumeExporter::end_interval).
 * Open loop: a tick does not wait for earlier requests; they queue in the sender (the agents'
 * spools) when ingest is slower than the fleet.
 *
 * buildFleet({templates, hosts, volumesPerHost, seed}) -> Host[]
 *   Host: {index, hostId, phaseMs, volumes: SimulatedVolume[], token (set by the caller: the
 *   host's agent credential)}; the same fleet for the same seed
 * runFleet({hosts, sender, seconds, onMetricsAck?(host, {volumeId, startMs}[], closedAtMs, ackedAtMs)})
 *   sends for `seconds`, then returns (requests may still be queued in the sender)
 */
import { createHash, randomUUID } from 'node:crypto';
import protobuf from 'protobufjs';
import proto from '@tierwise/proto';
import { SimulatedVolume } from './simulated-volume.mjs';

const { BATCH_ID_HEADER } = proto;
const INTERVAL_MS = 10_000;
/** VolumeExporter::kMaxBatchesPerReferenceRequest and kMaxReferenceRequestBytes (edge-agent/src/export). */
const MAX_BATCHES_PER_REFERENCE_REQUEST = 1000;
const MAX_REFERENCE_REQUEST_BYTES = 4 * 1024 * 1024;
/** ReferenceBatches.batches: field 1, length-delimited. */
const BATCHES_TAG = (1 << 3) | 2;

function hexId(seed, name, length) {
  return createHash('sha256').update(`${seed}/${name}`).digest('hex').slice(0, length);
}

/** mulberry32: a small seeded PRNG, so a fleet is the same for the same seed. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function buildFleet({ templates, hosts, volumesPerHost, seed = 1 }) {
  const next = random(seed);
  return Array.from({ length: hosts }, (_, index) => {
    const hostId = hexId(seed, `host ${index}`, templates[0].hostId.length);
    const volumes = Array.from({ length: volumesPerHost }, (_, j) => {
      const template = templates[(index * volumesPerHost + j) % templates.length];
      return new SimulatedVolume({
        template, hostId,
        volumeId: hexId(seed, `volume ${index}/${j}`, template.volumeId.length),
        offset: Math.floor(next() * template.slots),
        salt: Math.floor(next() * 2 ** 40),
      });
    });
    return { index, token: null, hostId, phaseMs: Math.floor(next() * INTERVAL_MS), volumes };
  });
}

function sendTick(host, k, sender, onMetricsAck) {
  const closedAtMs = Date.now();
  const endNano = BigInt(closedAtMs) * 1_000_000n;
  const bodies = [];
  const reported = [];
  for (const volume of host.volumes) {
    const body = volume.interval(k, endNano);
    if (body) {
      bodies.push(body);
      reported.push({ volumeId: volume.volumeId, startMs: closedAtMs - INTERVAL_MS });
    }
  }
  if (bodies.length) {
    sender.enqueue(host, {
      stream: 'metrics', path: '/v1/metrics', body: Buffer.concat(bodies),
      headers: { [BATCH_ID_HEADER]: randomUUID() }, volumeIntervals: bodies.length, references: 0,
      onAck: onMetricsAck && ((ackedAtMs) => onMetricsAck(host, reported, closedAtMs, ackedAtMs)),
    });
  }
  let request = null;
  const send = () => {
    if (!request) return;
    sender.enqueue(host, {
      stream: 'refs', path: '/v1/refs/batches', body: Buffer.from(request.writer.finish()), headers: { [BATCH_ID_HEADER]: randomUUID() },
      volumeIntervals: 0, references: request.references, batches: request.batches,
    });
    request = null;
  };
  for (const volume of host.volumes) {
    for (const { body, references } of volume.referenceBatches(k, endNano)) {
      // The batch and its framing (a 1-byte tag, a length of at most 5), as the agent counts.
      if (request && (request.batches === MAX_BATCHES_PER_REFERENCE_REQUEST || request.bytes + body.length + 6 > MAX_REFERENCE_REQUEST_BYTES)) send();
      request ??= { writer: protobuf.Writer.create(), bytes: 0, references: 0, batches: 0 };
      request.writer.uint32(BATCHES_TAG).bytes(body);
      Object.assign(request, { bytes: request.bytes + body.length + 6, references: request.references + references, batches: request.batches + 1 });
    }
  }
  send();
}

export async function runFleet({ hosts, sender, seconds, onMetricsAck }) {
  const started = Date.now();
  const timers = hosts.map((host) => {
    let k = 0;
    const tick = () => {
      sendTick(host, k++, sender, onMetricsAck);
      const due = started + host.phaseMs + k * INTERVAL_MS;
      if (due - started < seconds * 1000) host.timer = setTimeout(tick, Math.max(0, due - Date.now()));
    };
    host.timer = setTimeout(tick, host.phaseMs);
    return host;
  });
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000 + 50));
  for (const host of timers) clearTimeout(host.timer);
}
