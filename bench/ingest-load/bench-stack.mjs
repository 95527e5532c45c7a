/**
 * The running local stack as the benchmarks see it (infra/local/env.sh variables, pid files of
 * infra/local/lib.sh), and the corpus the simulated agents send.
 *
 * die(message)            -> prints `ingest-load: message` and exits 1
 * requireEnv()            -> the environment; dies naming a variable run.sh/soak.sh did not set
 * pidOf(name)             -> pid of a stack process (`<pid> <start time>` in run/<name>.pid; PostgreSQL's
 *                            postmaster from postgres/postmaster.pid), or null
 * stackPids()             -> {name: pid} of every running process of the stack
 * ingestUp()              -> whether ingest answers GET /healthz
 * seedTenant()            -> a fresh tenant {tenant_id, agent_token, api_key, ...} (api's seed, read-write key)
 * enrollAgents(tenant, hostIds) -> one agent credential per host id, enrolled in `tenant` as an
 *   agent enrolls (below)
 * agentCorpora({trace, agents, workDir, tenant}) -> {batches, corpora}: what the real agent sends for
 *   `trace` (capture.mjs), and one remapped copy per simulated agent (remap.mjs), each with its
 *   own agent credential (`token`, enrolled in `tenant` through the api): ingest bounds the
 *   requests one credential holds open
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { captureBatches } from './capture.mjs';
import { remapCorpus } from './remap.mjs';

const run = promisify(execFile);
export const ROOT = process.env.TIERWISE_ROOT ?? path.resolve(import.meta.dirname, '../..');
/** The stack's processes, as named by infra/local (pid files). */
export const STACK_PROCESSES = ['postgres', 'kafka', 'stream-jobs', 'ingest', 'api', 'notifier', 'web'];

export function die(message) {
  process.stderr.write(`ingest-load: ${message}\n`);
  process.exit(1);
}

export function requireEnv() {
  for (const name of ['TIERWISE_INGEST_URL', 'TIERWISE_API_URL', 'TIERWISE_STATE_DIR']) {
    if (!process.env[name]) die(`${name} is not set: run through bench/ingest-load/run.sh or soak.sh (they source infra/local/env.sh)`);
  }
  return process.env;
}

export function pidOf(name) {
  const file = name === 'postgres' ? ['postgres', 'postmaster.pid'] : ['run', `${name}.pid`];
  try {
    return Number(readFileSync(path.join(process.env.TIERWISE_STATE_DIR, ...file), 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return null;
  }
}

export function stackPids() {
  return Object.fromEntries(STACK_PROCESSES.map((n) => [n, pidOf(n)]).filter(([, p]) => p));
}

export async function ingestUp() {
  return fetch(`${process.env.TIERWISE_INGEST_URL}/healthz`).then((r) => r.ok, () => false);
}

export async function seedTenant() {
  const { stdout } = await run('npm', ['run', '-s', '-w', '@tierwise/api', 'seed', '--', '--tenant-name', `bench-${Date.now()}`, '--scope', 'read-write'], { cwd: ROOT });
  return JSON.parse(stdout.trim().split('\n').pop());
}

/**
 * One agent credential of `tenant` per host id, each enrolled as an agent enrolls: a one-time token from
 * the api (POST /v1/enrollment-tokens), exchanged at the agent gateway (POST /v1/agents/enroll,
 * docs/agent-gateway.md), waiting out its per-address rate limit (429 with Retry-After).
 */
export async function enrollAgents(tenant, hostIds) {
  const post = async (url, body, headers = {}) => {
    for (;;) {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      if (response.status === 429) {
        const seconds = Number(response.headers.get('retry-after') ?? 1);
        console.log(`  enrollment rate limit: waiting ${seconds} s`);
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
        continue;
      }
      if (!response.ok) die(`POST ${url} answered ${response.status}: ${await response.text()}`);
      return response.json();
    }
  };
  const credentials = [];
  for (const [i, hostId] of hostIds.entries()) {
    const { token } = await post(`${process.env.TIERWISE_API_URL}/v1/enrollment-tokens`, { name: `bench agent ${i}` }, { authorization: `Bearer ${tenant.api_key}` });
    credentials.push((await post(`${process.env.TIERWISE_INGEST_URL}/v1/agents/enroll`, { enrollment_token: token, host_id: hostId, version: '0.0.0-bench' })).credential);
  }
  return credentials;
}

export async function agentCorpora({ trace, agents, workDir, tenant }) {
  console.log(`capturing the agent's batches for ${path.basename(trace)}`);
  const batches = await captureBatches({ agentBin: path.join(ROOT, 'edge-agent/build/tierwise-agent'), trace, workDir });
  console.log(`  ${batches.metrics.length} OTLP metrics batches, ${batches.refs.length} reference batches per agent`);
  const hostIds = Array.from({ length: agents }, (_, i) => (0xbe7c_0000_0000 + i).toString(16).padStart(16, '0'));
  const credentials = await enrollAgents(tenant, hostIds);
  return { batches, corpora: credentials.map((token, i) => ({ ...remapCorpus(batches, i), token })) };
}
