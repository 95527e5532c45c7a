// Anonymity (docs/anonymity.md): every byte the agent sends while replaying
// each real trace goes through a recording proxy in front of ingest, and no
// host name, volume name, path or block address is found in it: not in the
// raw bytes, not in the HTTP heads, not in the decoded protobuf bodies.
// A control run with --send-names, and addresses planted in its capture,
// show that the same search does find them. A finding counts only when a
// second replay under another agent key finds it again: a leak does not depend
// on the key, while a chance match with the keyed hashes' random bytes (a 5-byte
// varint pattern turns up now and then over megabytes of hashes) does not come back.
import { hostname, tmpdir } from 'node:os';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ExportMetricsServiceRequest, ReferenceBatches } from '@tierwise/proto';
import { startCaptureProxy } from '../lib/capture-proxy.mjs';
import { AddressIndex, encodings, findStrings, MIN_VARINT, splitHttpRequests, walkDecoded } from '../lib/leak-search.mjs';
import { ROOT, env, runAgent, seedTenant, startStack, TRACES } from '../lib/stack.mjs';
import { sampleTraces } from '../lib/trace-sample.mjs';

/** Records replayed per trace: a few thousand, so the whole test stays within a minute or two. */
const RECORDS_PER_TRACE = 3000;
/** A host name no byte stream contains by chance. */
const HOST_NAME = 'anon-test-host-q7x3k9';

const BODY_DECODERS = { '/v1/metrics': ExportMetricsServiceRequest, '/v1/refs/batches': ReferenceBatches };

let stack;
let tenant;
let dir;
let traces;

before(async () => {
  stack = await startStack({ streamJobs: false });
  tenant = await seedTenant('e2e-anonymity');
  dir = await mkdtemp(path.join(tmpdir(), 'tierwise-e2e-anon-'));
  traces = sampleTraces(TRACES, dir, RECORDS_PER_TRACE);
});

after(async () => {
  await stack?.stop();
});

/** Replays `trace` through a recording proxy; returns the bytes of each connection the agent opened. */
async function replayCaptured(trace, extraArgs = [], keyFile = 'agent.key') {
  const ingest = new URL(env('TIERWISE_INGEST_URL'));
  const proxy = await startCaptureProxy(ingest.hostname, Number(ingest.port));
  try {
    const result = await runAgent([
      'replay', trace.path, '--ingest', proxy.url, '--token', tenant.agent_token,
      '--key-file', path.join(dir, keyFile), '--host-name', HOST_NAME, '--interval', '10s', ...extraArgs,
    ]);
    assert.equal(result.code, 0, `replay of ${trace.file} failed:\n${result.stderr.slice(-2000)}`);
  } finally {
    await proxy.close();
  }
  const connections = proxy.connections();
  assert.ok(connections.reduce((n, c) => n + c.length, 0) > 0, `nothing captured for ${trace.file}`);
  return connections;
}

/** The names and paths of a trace's replay that must not leave the host. */
function secretNames(trace) {
  const names = [HOST_NAME, hostname(), ...trace.volumes, trace.file, dir, TRACES, ROOT, path.basename(dir)];
  return [...new Set(names)].filter((n) => n.length >= 4);
}

/**
 * Searches the captured connections for `names` and the trace's addresses: in the raw bytes, and
 * in each request's head and decoded body (strings for names; integers and bytes fields for
 * addresses). Returns the findings ({where, what}: what is the name in quotes, or the encoding
 * and the address), plus the number of requests decoded.
 */
function search(connections, names, index) {
  const findings = [];
  const found = (where, what) => findings.push({ where, what });
  let requests = 0;
  connections.forEach((bytes, c) => {
    for (const h of findStrings(bytes, names)) found(`raw: connection ${c} byte ${h.offset}`, `"${h.needle}"`);
    for (const h of index.search(bytes)) found(`raw: connection ${c} byte ${h.offset}`, `${h.encoding} of ${h.label}`);
    for (const request of splitHttpRequests(bytes)) {
      requests += 1;
      const where = `${request.method} ${request.path}`;
      const decoder = BODY_DECODERS[request.path];
      assert.ok(decoder, `the agent sent an unexpected request: ${where}`);
      for (const h of findStrings(Buffer.from(request.head, 'latin1'), names)) found(`${where} head`, `"${h.needle}"`);
      for (const h of index.search(request.body)) found(`${where} body byte ${h.offset}`, `${h.encoding} of ${h.label}`);
      walkDecoded(decoder.decode(request.body), {
        onString: (s, at) => {
          for (const h of findStrings(Buffer.from(s, 'latin1'), names)) found(`${where} decoded ${at}`, `"${h.needle}"`);
        },
        onInteger: (v, at) => {
          if (v >= MIN_VARINT && index.label(v)) found(`${where} decoded ${at}`, index.label(v));
        },
        onBytes: (b, at) => {
          for (const h of index.search(b)) found(`${where} decoded ${at}`, `${h.encoding} of ${h.label}`);
        },
      });
    }
  });
  return { findings, requests };
}

const line = (f) => `${f.where}: ${f.what}`;

function indexOf(trace) {
  const index = new AddressIndex();
  for (const a of trace.addresses) index.add(a.value, a.label);
  return index;
}

test('nothing the agent sends while replaying each real trace holds a host name, volume name, path or block address', async () => {
  for (const trace of traces) {
    const index = indexOf(trace);
    const connections = await replayCaptured(trace);
    const { findings, requests } = search(connections, secretNames(trace), index);
    const bytes = connections.reduce((n, c) => n + c.length, 0);
    let leaks = findings;
    if (findings.length > 0) {
      const again = search(await replayCaptured(trace, [], 'other-agent.key'), secretNames(trace), index).findings;
      leaks = findings.filter((f) => again.some((g) => g.what === f.what));
    }
    console.log(`${trace.file}: ${trace.records} records, ${trace.volumes.size} volume(s); ${requests} requests, ` +
      `${bytes} bytes captured; addresses searched ${JSON.stringify(index.coverage())}; ${findings.length} findings` +
      (findings.length > 0 ? ` (${findings.slice(0, 5).map(line).join('; ')}), ${leaks.length} found again under another key` : ''));
    assert.ok(requests > 0);
    assert.deepEqual(leaks.slice(0, 20).map(line), [], `${trace.file}: ${leaks.length} leak(s)`);
  }
});

test('control: the same search finds names sent with --send-names and addresses planted in the capture', async () => {
  const trace = traces.find((t) => t.file.startsWith('msr_'));
  const index = indexOf(trace);
  const connections = await replayCaptured(trace, ['--send-names']);
  const names = secretNames(trace);
  const { findings } = search(connections, names, index);
  const again = search(await replayCaptured(trace, ['--send-names'], 'other-agent.key'), names, index).findings;
  for (const name of [HOST_NAME, 'hm_0']) {
    const decoded = (f) => f.what === `"${name}"` && f.where.includes('decoded');
    assert.ok(findings.some(decoded) && again.some(decoded), `${name} not found under both keys`);
  }
  // Plant one real address of the trace in every encoding into a copy of the capture.
  const planted = trace.addresses.map((a) => a.value).find((v) => encodings(v).length === 5);
  assert.ok(planted, 'the trace has an address large enough for every encoding');
  for (const { encoding, bytes } of encodings(planted)) {
    const copy = Buffer.concat([connections[0], Buffer.from([0x01]), bytes, Buffer.from([0x01])]);
    const hits = index.search(copy).filter((h) => h.value === planted && h.encoding === encoding);
    assert.equal(hits.length, 1, `a planted ${encoding} of ${planted} was not found`);
  }
});
