// The running stack for end-to-end tests: ingest, api and the Flink jobs as
// child processes of the test, on the test profile's ports (infra/local/env.sh),
// in front of the PostgreSQL and Kafka that `./tierwise test` started.
//
// Every test seeds its own tenant, so tests never see each other's data.
import { spawn, execFile } from 'node:child_process';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { copyFile, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const execFileAsync = promisify(execFile);
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const AGENT = path.join(ROOT, 'edge-agent/build/tierwise-agent');
export const TRACES = process.env.TIERWISE_TRACES_DIR ?? path.resolve(ROOT, '../shared/traces');

/** Reads a TIERWISE_* variable; throws naming it when `./tierwise test` did not export it. */
export function env(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through ./tierwise test`);
  return value;
}

/** Polls `probe` every `intervalMs` until it returns a truthy value; throws `what` after `timeoutMs`. */
export async function waitFor(what, probe, { timeoutMs = 120_000, intervalMs = 500 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${last.message}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Resolves as `promise` does, or rejects with `message()` after `ms`; never keeps the process alive. */
function withTimeout(promise, ms, message) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(message())), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Spawns `command args` from the repository root with the test's environment plus `extraEnv`;
 * {name, child, readyPromise, output, ready}: readyPromise resolves once a line of its output
 * contains `readyLine` (or `ready()` is called) and rejects when it exits first.
 */
export function startProcess(name, command, args, readyLine, extraEnv = {}) {
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  let ready;
  const readyPromise = new Promise((resolve, reject) => {
    ready = resolve;
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}:\n${output.join('').slice(-3000)}`)));
  });
  const onData = (chunk) => {
    const text = chunk.toString();
    output.push(text);
    if (output.length > 200) output.shift();
    if (readyLine && text.includes(readyLine)) ready();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return { name, child, readyPromise, output, ready };
}

/** SIGTERM, then SIGKILL after 10 s; resolves once `p` exited. */
export async function stopProcess(p) {
  if (p.child.exitCode !== null) return;
  p.child.kill('SIGTERM');
  try {
    await once(p.child, 'exit', { signal: AbortSignal.timeout(10_000) });
  } catch {
    p.child.kill('SIGKILL');
  }
}

/** Resolves once `p` answers GET `url`/healthz (or `probePath`) with 200; rejects if it exits first or after `timeoutMs`. */
export function healthy(p, url, { probePath = '/healthz', timeoutMs = 60_000 } = {}) {
  return Promise.race([
    p.readyPromise,
    waitFor(`${p.name} ${probePath}`, async () => (await fetch(`${url}${probePath}`)).ok, { timeoutMs }),
  ]);
}

/**
 * Starts ingest, api and (unless `streamJobs` is false: tests that need no results) the Flink
 * jobs and waits until each is ready.
 * Returns { stop(), stopIngest(), restartIngest(), output(name) } (stopIngest and
 * restartIngest stop ingest alone, and start it again and wait until it is ready;
 * output gives a process's recent output). Ingest and api are ready when GET /healthz
 * answers 200; the Flink jobs when they log "tierwise-stream-jobs: running".
 *
 * `env` adds variables to ingest's and the jobs' environment (e.g. Kafka credentials,
 * OTEL_EXPORTER_OTLP_ENDPOINT); with OpenTelemetry configured, ingest starts as in
 * production (`node --import @tierwise/common/otel`) and the jobs find Flink's metric
 * reporter plugin in stream-jobs/target/plugins.
 */
export async function startStack({ streamJobs = true, env: extraEnv = {} } = {}) {
  const ingestUrl = env('TIERWISE_INGEST_URL');
  const apiUrl = env('TIERWISE_API_URL');
  const startIngest = () => startProcess('ingest', 'node', [
    ...(extraEnv.OTEL_EXPORTER_OTLP_ENDPOINT ? ['--import', '@tierwise/common/otel'] : []),
    path.join(ROOT, 'services/ingest/dist/main.js'),
  ], null, { npm_package_name: '@tierwise/ingest', ...extraEnv });
  const procs = [
    streamJobs ? await startStreamJobs(extraEnv) : null,
    startIngest(),
    startProcess('api', 'node', [path.join(ROOT, 'services/api/dist/main.js')]),
  ];
  const stop = async () => {
    for (const p of procs) if (p) await stopProcess(p);
  };
  try {
    for (const [p, url] of [[procs[1], ingestUrl], [procs[2], apiUrl]]) await healthy(p, url);
    if (procs[0]) {
      await withTimeout(procs[0].readyPromise, 180_000,
        () => `stream-jobs not running after 180 s:\n${procs[0].output.join('').slice(-3000)}`);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    stop,
    stopIngest: () => stopProcess(procs[1]),
    restartIngest: async () => {
      procs[1] = startIngest();
      await healthy(procs[1], ingestUrl);
    },
    output: (name) => procs.find((p) => p?.name === name).output.join(''),
  };
}

async function startStreamJobs(extraEnv) {
  // Run a copy of the jar: a rebuild rewrites target/ in place under a running JVM.
  const jar = path.join(await mkdtemp(path.join(tmpdir(), 'tierwise-e2e-jobs-')), 'stream-jobs.jar');
  await copyFile(path.join(ROOT, 'stream-jobs/target/tierwise-stream-jobs.jar'), jar);
  return startProcess('stream-jobs', 'java', ['-Xmx1g', '-jar', jar], 'tierwise-stream-jobs: running',
    { FLINK_PLUGINS_DIR: path.join(ROOT, 'stream-jobs/target/plugins'), ...extraEnv });
}

/**
 * Creates a tenant with an agent credential and an API key (read, or `scope` 'read-write', which
 * acts as the tenant's admin): {tenant_id, agent_id, agent_token, api_key}; with `login` (an
 * e-mail address), also a verified portal user owning it: login_email, login_password.
 */
export async function seedTenant(name, { scope = 'read', login } = {}) {
  const args = ['--tenant-name', name, '--scope', scope, ...(login ? ['--login', login] : [])];
  const { stdout } = await execFileAsync('node', [path.join(ROOT, 'services/api/dist/cli/seed.js'), ...args], {
    cwd: ROOT,
    env: process.env,
  });
  return JSON.parse(stdout.trim().split('\n').pop());
}

/** GET `pathname` from the api with `apiKey`; returns {status, body}. */
export async function apiGet(apiKey, pathname) {
  const res = await fetch(`${env('TIERWISE_API_URL')}${pathname}`, { headers: { authorization: `Bearer ${apiKey}` } });
  return { status: res.status, body: await res.json() };
}

/** PUT `body` (JSON) to `pathname` of the api with `apiKey`; returns {status, body}. */
export async function apiPut(apiKey, pathname, body) {
  const res = await fetch(`${env('TIERWISE_API_URL')}${pathname}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** POST `body` (JSON; none when undefined) to `pathname` of the api with `apiKey`; returns {status, body}. */
export async function apiPost(apiKey, pathname, body) {
  const res = await fetch(`${env('TIERWISE_API_URL')}${pathname}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** The process exists and is not a zombie (an agent started by install.sh is an orphan once the script exits). */
export async function alive(pid) {
  try {
    return !/^\d+ \(.*\) Z /.test(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Runs `command` with `sh -c` in the test's environment; resolves {code, stdout, stderr} whatever the exit code. */
export function shell(command) {
  return new Promise((resolve) => {
    execFile('sh', ['-c', command], { env: process.env, maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? error.code : 0, stdout, stderr }));
  });
}

/**
 * Runs `tierwise-agent` with `args`; resolves {code, stdout, stderr} whatever the exit code.
 */
export function runAgent(args) {
  return new Promise((resolve, reject) => {
    execFile(AGENT, args, { cwd: ROOT, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') return reject(error);
      resolve({ code: error ? error.code : 0, stdout, stderr });
    });
  });
}

/** Replays `traces` for `tenant` into the test stack's ingest; resolves {code, stdout, stderr, summary}. */
export async function replay(tenant, traces, extraArgs = []) {
  const dir = await mkdtemp(path.join(tmpdir(), 'tierwise-e2e-'));
  const summaryFile = path.join(dir, 'summary.json');
  const result = await runAgent([
    'replay', ...traces,
    '--ingest', env('TIERWISE_INGEST_URL'),
    '--token', tenant.agent_token,
    '--key-file', path.join(dir, 'agent.key'),
    '--json-summary', summaryFile,
    '--send-names',
    ...extraArgs,
  ]);
  let summary = null;
  try {
    summary = JSON.parse(await readFile(summaryFile, 'utf8'));
  } catch {
    summary = null;
  }
  return { ...result, summary, keyFile: path.join(dir, 'agent.key') };
}

/**
 * Waits until the api shows `volumeCount` volumes whose read+write ops add up to `ops` and, with
 * `withWorkingSet`, each with a working set that has stayed the same for 3 s (the working-set job
 * writes as the reference batches are processed, at most once a second, so a working set that
 * exists may still be growing).
 */
export async function waitForVolumes(tenant, { volumeCount, ops, withWorkingSet = true, timeoutMs = 180_000 }) {
  let last = null;
  let stableSince = 0;
  return waitFor(`${volumeCount} volume(s) with ${ops} I/Os in the api`, async () => {
    const { status, body } = await apiGet(tenant.api_key, '/v1/fleet/summary');
    if (status !== 200) throw new Error(`fleet summary answered ${status}: ${JSON.stringify(body)}`);
    if (body.volumes !== volumeCount || body.read_ops + body.write_ops !== ops) return false;
    if (!withWorkingSet) return body;
    const list = await apiGet(tenant.api_key, `/v1/volumes?limit=${Math.min(volumeCount, 200)}`);
    if (!list.body.data.every((v) => v.wss_bytes !== null)) return false;
    const now = JSON.stringify(list.body.data.map((v) => [v.volume_id, v.wss_bytes, v.hit_ratio]));
    if (now !== last) [last, stableSince] = [now, Date.now()];
    return Date.now() - stableSince >= 3000 ? body : false;
  }, { timeoutMs, intervalMs: 1000 });
}
