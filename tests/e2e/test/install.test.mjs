// The one-line install, for real: the install script the api serves is piped
// from curl into sh, as an admin runs it, into a scratch root (--root) without
// systemd. It downloads the agent package from the api, checks it against
// SHA256SUMS, enrolls with a one-time token and starts `tierwise-agent run`,
// whose health then shows in GET /v1/agents. A replay with the new credential
// is accepted by ingest; a second run of the script changes nothing that
// matters (same agent, credential and key); a revoked agent's next batch is
// refused; --uninstall stops the agent and leaves no file behind.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { alive, apiGet, env, runAgent, seedTenant, shell, startStack, TRACES, waitFor } from '../lib/stack.mjs';

const EXIT_REJECTED = 4;
let stack;
let work;

before(async () => {
  stack = await startStack({ streamJobs: false });
  work = await mkdtemp(path.join(tmpdir(), 'tierwise-install-'));
});

after(async () => {
  // A failed run may leave the agent running: stop it as --uninstall would.
  if (work) await installScript(['--uninstall', '--root', path.join(work, 'root')]);
  await stack?.stop();
});

/** `curl -fsSL <api>/install.sh | sh -s -- ARGS` (no sudo: --root makes it unprivileged); {code, stdout, stderr}. */
function installScript(args) {
  return shell(`curl -fsSL "$TIERWISE_API_URL/install.sh" | sh -s -- ${args.map((a) => `'${a}'`).join(' ')}`);
}

async function apiCall(apiKey, method, pathname, body) {
  const res = await fetch(`${env('TIERWISE_API_URL')}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** Every file (not directory) under `dir`, relative. */
async function filesUnder(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => !e.isDirectory()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
}

/** The agents of the tenant that enrolled (the seed's credential has no enrollment). */
async function enrolledAgents(apiKey) {
  const { status, body } = await apiGet(apiKey, '/v1/agents?status=all');
  assert.equal(status, 200, JSON.stringify(body));
  return body.data.filter((a) => a.enrolled_at !== null);
}

/** Replays the MSR sample with `credential`; {code, stderr}. */
function replayWith(credential, keyFile, spool) {
  return runAgent(['replay', path.join(TRACES, 'msr_hm_0_sample1000.csv'), '--ingest', env('TIERWISE_INGEST_URL'), '--token', credential,
    '--key-file', keyFile, '--spool-dir', spool]);
}

test('install.sh served by the api: install, enroll, report, re-run, revoke, uninstall', async () => {
  const tenant = await seedTenant('e2e-install', { scope: 'read-write' });
  const root = path.join(work, 'root');
  const etc = path.join(root, 'etc/tierwise');
  const pidFile = path.join(root, 'run/tierwise/tierwise-agent.pid');

  const created = await apiCall(tenant.api_key, 'POST', '/v1/enrollment-tokens', { name: 'e2e install' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const token = created.body.token;

  // First install.
  const first = await installScript(['--token', token, '--root', root, '--no-systemd']);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, /downloaded tierwise-agent_[\d.]+_linux-\w+\.tar\.gz \(SHA-256 verified\)/);
  assert.match(first.stderr, /generated the tenant's anonymization key/);
  assert.match(first.stderr, /install further hosts of this tenant with --anonymization-key-file/);
  assert.deepEqual(await filesUnder(root), [
    'etc/tierwise/agent.credential', 'etc/tierwise/agent.yaml', 'etc/tierwise/anonymization.key',
    'opt/tierwise/bin/tierwise-agent', 'run/tierwise/tierwise-agent.pid', 'var/lib/tierwise/installed-package', 'var/log/tierwise-agent.log',
  ]);
  for (const secret of ['agent.credential', 'anonymization.key']) {
    assert.equal((await stat(path.join(etc, secret))).mode & 0o777, 0o600, `${secret} must be mode 0600`);
  }
  const config = await readFile(path.join(etc, 'agent.yaml'), 'utf8');
  // One base URL for every route the agent calls: the agent gateway, ingest's (docs/agent-gateway.md).
  assert.match(config, new RegExp(`^gateway_url: ${env('TIERWISE_INGEST_URL')}$`, 'm'));
  assert.doesNotMatch(config, /^(api_url|ingest_url):/m);
  assert.match(config, new RegExp(`^credential_file: ${etc}/agent.credential$`, 'm'));
  const credential = (await readFile(path.join(etc, 'agent.credential'), 'utf8')).trim();
  const key = await readFile(path.join(etc, 'anonymization.key'), 'utf8');
  assert.match(credential, /^twa_[\w-]{43}$/);
  assert.match(key, /^[0-9a-f]{32}\n$/);
  const pid = Number(await readFile(pidFile, 'utf8'));
  assert.ok(await alive(pid), 'the agent runs after the install');

  // The running agent reports its health; the token is spent.
  const [agent] = await waitFor('the agent health in GET /v1/agents', async () => {
    const agents = await enrolledAgents(tenant.api_key);
    return agents.length === 1 && agents[0].health.last_report_at !== null ? agents : false;
  }, { timeoutMs: 30_000 });
  assert.match(agent.host_id, /^[0-9a-f]{16}$/);
  assert.equal(agent.version, '0.1.0');
  assert.deepEqual({ ...agent.health, last_report_at: null }, {
    last_report_at: null, uptime_seconds: agent.health.uptime_seconds, volume_count: 0, tier_used_bytes: 0, tier_capacity_bytes: 0,
    error_count: 0, last_error: null, last_error_at: null, last_telemetry_at: null,
  });
  const tokens = await apiCall(tenant.api_key, 'GET', '/v1/enrollment-tokens');
  assert.deepEqual(tokens.body.data.map((t) => [t.status, t.agent_id]), [['used', agent.id]]);

  // A batch with the new credential is accepted.
  const accepted = await replayWith(credential, path.join(etc, 'anonymization.key'), path.join(work, 'spool'));
  assert.equal(accepted.code, 0, accepted.stderr);
  // ... and the agents list shows when ingest last took its telemetry (a replay reports no health).
  const replayed = (await enrolledAgents(tenant.api_key))[0].health.last_telemetry_at;
  assert.ok(Date.parse(replayed) >= Date.parse(agent.health.last_report_at) - 1000, `last_telemetry_at ${replayed} after the install`);

  // Re-run: harmless. Same agent, credential and key; the agent runs again.
  const again = await installScript(['--token', token, '--root', root, '--no-systemd']);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /already enrolled/);
  assert.match(again.stderr, /kept the existing .*agent\.yaml/);
  assert.equal((await readFile(path.join(etc, 'agent.credential'), 'utf8')).trim(), credential);
  assert.equal(await readFile(path.join(etc, 'anonymization.key'), 'utf8'), key);
  assert.deepEqual((await enrolledAgents(tenant.api_key)).map((a) => a.id), [agent.id]);
  const rerunPid = Number(await readFile(pidFile, 'utf8'));
  assert.ok(await alive(rerunPid), 'the agent runs after the re-run');
  assert.ok(!(await alive(pid)) || pid === rerunPid, 'one agent process, not two');

  // Revoke: the next batch is refused with the reason, and nothing of it is written.
  const revoked = await apiCall(tenant.api_key, 'DELETE', `/v1/agents/${agent.id}`);
  assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
  const refused = await replayWith(credential, path.join(etc, 'anonymization.key'), path.join(work, 'spool-revoked'));
  assert.equal(refused.code, EXIT_REJECTED, refused.stderr);
  assert.match(refused.stderr, /401/);
  assert.match(refused.stderr, /agent_revoked|was revoked/);

  // Uninstall: the agent stops and every file the installer added is gone.
  const removed = await installScript(['--uninstall', '--root', root]);
  assert.equal(removed.code, 0, removed.stderr);
  assert.equal(await alive(rerunPid), false, 'the agent is stopped');
  assert.deepEqual(await filesUnder(root), []);
});
