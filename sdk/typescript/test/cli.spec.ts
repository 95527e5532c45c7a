/**
 * The compiled `tierwise` CLI (dist/cli/main.js) as a user runs it, against the real api
 * process: login writes a 0600 config file, lists, show/apply of recommendations, policy set,
 * CSV export, and the errors a user sees.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveSuite } from './support/live-suite.js';
import { GiB, type World } from './support/world.js';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('tierwise CLI (real api process, real PostgreSQL)', () => {
  const live = liveSuite('cli');
  let world: World;
  let home: string;

  /** Runs the CLI with only the config file (no TIERWISE_API_KEY) unless `env` says otherwise. */
  async function tierwise(args: string[], env: Record<string, string> = {}): Promise<Run> {
    const { TIERWISE_API_KEY: _key, TIERWISE_API_URL: _url, ...inherited } = process.env;
    return promisify(execFile)(process.execPath, [CLI, ...args], { env: { ...inherited, XDG_CONFIG_HOME: home, ...env } }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );
  }

  beforeAll(() => {
    world = live.world;
    home = mkdtempSync(join(tmpdir(), 'tierwise-cli-'));
  });

  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('asks for a key before login', async () => {
    const run = await tierwise(['hosts', 'list']);
    expect(run).toMatchObject({ code: 2, stderr: expect.stringContaining('no API key: set TIERWISE_API_KEY or run `tierwise login --api-key <key>`') });
  });

  it('refuses a wrong key at login and saves a working one to a 0600 config file', async () => {
    const wrong = await tierwise(['login', '--api-key', 'twk_wrong', '--api-url', live.api.url]);
    expect(wrong).toMatchObject({ code: 1, stderr: expect.stringMatching(/API key is unknown or revoked \(unauthorized, HTTP 401, request [\w-]+\)/) });
    const login = await tierwise(['login', '--api-key', world.adminKey, '--api-url', live.api.url]);
    expect(login.code).toBe(0);
    const path = join(home, 'tierwise', 'config.json');
    expect(login.stdout).toContain(`saved to ${path} (mode 600)`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ api_key: world.adminKey, api_url: live.api.url });
  });

  it('refuses a config file others can read', async () => {
    const path = join(home, 'tierwise', 'config.json');
    chmodSync(path, 0o644);
    const run = await tierwise(['hosts', 'list']);
    chmodSync(path, 0o600);
    expect(run).toMatchObject({ code: 2, stderr: expect.stringContaining(`is accessible by others (mode 644); it holds an API key: chmod 600 ${path}`) });
  });

  it('lists hosts and volumes', async () => {
    const hosts = await tierwise(['hosts', 'list']);
    expect(hosts.stdout.split('\n')[0]).toMatch(/^HOST\s+NAME\s+VOLUMES\s+LAST SEEN$/);
    expect(hosts.stdout).toMatch(new RegExp(`${world.hostId}\\s+-\\s+2\\s`));
    const volumes = await tierwise(['volumes', 'list', '--json']);
    expect((JSON.parse(volumes.stdout) as { volume_id: string }[]).map((v) => v.volume_id)).toEqual([world.recommendedVolume, world.plainVolume]);
    const paged = await tierwise(['volumes', 'list', '--limit', '1']);
    expect(paged.stdout).toContain(world.recommendedVolume);
    expect(paged.stdout).not.toContain(world.plainVolume);
    expect(paged.stderr).toMatch(/^more: --cursor \S+ \(or --all\)$/m);
    const all = await tierwise(['volumes', 'list', '--limit', '1', '--all']);
    expect(all.stdout).toContain(world.plainVolume);
  });

  it("writes a volume's fio job, unpaced with --no-rate", async () => {
    const run = await tierwise(['volumes', 'fio-job', world.plainVolume, '--no-rate']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^; fio job made by Tierwise from volume /);
    expect(run.stdout).toContain('\nrw=randrw\n');
    expect(run.stdout).not.toContain('rate_iops');
  });

  it("prints a volume's workload as JSON", async () => {
    const run = await tierwise(['volumes', 'workload', world.plainVolume, '--from', '2026-11-20T00:00:00Z', '--to', '2026-11-21T00:00:00Z']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ volume_id: world.plainVolume, from: '2026-11-20T00:00:00.000Z', alignment: null });
  });

  it('shows and applies a recommendation, which sets the policy', async () => {
    const show = await tierwise(['recommendations', 'show', world.recommendedVolume]);
    expect(show.stdout.split('\n')[0]).toMatch(/^VOLUME\s+HOST\s+TIER\s+EVICTION\s+MEDIA\s+POLICY\s/);
    expect(show.stdout).toMatch(new RegExp(`${world.recommendedVolume}\\s+${world.hostId}\\s+64 GiB\\s+sieve\\s+nvme\\s+write-through\\s+86.0 %\\s+open`));
    expect(show.stdout).toMatch(/24h\s+0\s+1250\.5\s+5 MiB\/s\s+180\.5 µs\s+950\.0 µs\s+-\s+-/);
    expect(show.stdout).toContain('a 64 GiB NVMe tier reaches 86 % hits');
    const history = await tierwise(['recommendations', 'history', world.recommendedVolume]);
    expect(history.stdout).toMatch(/2026-11-20T12:00:05\.000Z\s+24h\s+64 GiB\s+sieve\s+nvme\s+write-through\s+86\.0 %\s+-\s+-/);
    // Without --eviction the api applies the eviction policy the recommendation predicts for.
    const apply = await tierwise(['recommendations', 'apply', world.recommendedVolume]);
    expect(apply).toMatchObject({ code: 0, stdout: `applied: volume ${world.recommendedVolume} policy version 1: write-through, 64 GiB nvme, eviction sieve\n` });
    const again = await tierwise(['recommendations', 'apply', world.recommendedVolume]);
    expect(again).toMatchObject({ code: 1, stderr: expect.stringContaining('is applied already (conflict, HTTP 409') });
    const policy = JSON.parse((await tierwise(['policy', 'show', world.recommendedVolume])).stdout) as { version: number; source: string };
    expect(policy).toMatchObject({ version: 1, source: 'recommendation' });
  });

  it("sets a volume's policy with binary units and WB+n", async () => {
    const set = await tierwise(['policy', 'set', world.plainVolume, '--mode', 'wb+2', '--tier-size', '16GiB', '--media', 'nvme']);
    expect(set).toMatchObject({ code: 0, stdout: `volume ${world.plainVolume}: policy version 1 (write-back, 16 GiB nvme, s3-fifo); applied version none yet\n` });
    const { rows } = await world.tenants.owner.query('SELECT mode, write_back_copies, tier_bytes::float8 AS tier_bytes FROM volume_policies WHERE tenant_id = $1 AND volume_id = $2', [world.tenantId, world.plainVolume]);
    expect(rows).toEqual([{ mode: 'write-back', write_back_copies: 2, tier_bytes: 16 * GiB }]);
    const bad = await tierwise(['policy', 'set', world.plainVolume, '--mode', 'sometimes', '--tier-size', '16GiB', '--media', 'nvme']);
    expect(bad).toMatchObject({ code: 2, stderr: "tierwise: error: --mode must be write-through (wt) or write-back+N (wb+N, N peers 0-8), got 'sometimes'\n" });
  });

  it('exports metrics as CSV to a file, with the key from TIERWISE_API_KEY', async () => {
    const output = join(home, 'metrics.csv');
    const run = await tierwise(['metrics', 'export', world.recommendedVolume, '--from', world.intervalStarts[0], '-o', output], {
      TIERWISE_API_KEY: world.readKey,
      TIERWISE_API_URL: live.api.url,
    });
    expect(run).toMatchObject({ code: 0, stderr: `wrote 3 intervals to ${output}\n` });
    const lines = readFileSync(output, 'utf8').trim().split('\n');
    expect(lines[0]).toMatch(/^interval_start,interval_seconds,read_ops,write_ops,/);
    expect(lines.slice(1).map((line) => line.split(',')[2])).toEqual(['100', '200', '300']);
  });
});
