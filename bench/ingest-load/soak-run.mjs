#!/usr/bin/env node
/**
 * The soak of issue 9: the whole local stack under load at the sustainable rate for N
 * minutes, with the memory of every process watched (soak.mjs). Exits 1 when a process grows.
 *
 *   npm run -w @tierwise/bench-ingest-load soak -- [--minutes 10] [--rate BATCHES_PER_S]
 *       [--agents 16] [--max-growth-mib 64] [--trace FILE] [--keep-stack]
 *
 * 1. Starts the stack with `./tierwise up` unless ingest already answers (and stops it at the
 *    end with `./tierwise down` unless --keep-stack).
 * 2. Without --rate, measures the sustainable rate under the machine's current conditions:
 *    closed-loop saturation with --agents agents for 30 s (metrics + reference batches), then
 *    60 s open loop at 80 % of it; while more than 0.5 % of those are refused (503, ingest's
 *    back-pressure) or p99 exceeds 2 s, 20 % less (at most 4 tries).
 * 3. Soaks at that rate for --minutes, sampling every 10 s; the verdict ignores the warm-up,
 *    one pass over the corpus (or 60 s if shorter): until then each batch adds new keys to the
 *    jobs' state.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { agentCorpora, die, ingestUp, requireEnv, ROOT, seedTenant, stackPids } from './bench-stack.mjs';
import { runLoad } from './load.mjs';
import { openLoop } from './open-loop.mjs';
import { soak } from './soak.mjs';

const run = promisify(execFile);
const env = requireEnv();
const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    rate: { type: 'string' },
    agents: { type: 'string', default: '16' },
    'max-growth-mib': { type: 'string', default: '64' },
    trace: { type: 'string', default: path.join(env.TIERWISE_TRACES_DIR ?? path.resolve(ROOT, '../shared/traces'), 'cloudphysics_w_sample.csv') },
    'keep-stack': { type: 'boolean', default: false },
  },
});
const REFUSED_SHARE = 0.005;
const MAX_P99_MS = 2000;

async function tierwise(command) {
  console.log(`soak: ./tierwise ${command}`);
  const { stdout } = await run(path.join(ROOT, 'tierwise'), [command], { cwd: ROOT, env, maxBuffer: 64 << 20 });
  process.stdout.write(stdout.split('\n').slice(-5).join('\n'));
}

/** The sustainable rate now, batches/s (step 2 of the file comment). */
async function sustainableRate(corpora) {
  const closed = await runLoad({ url: env.TIERWISE_INGEST_URL, corpora, seconds: 30, kinds: ['metrics', 'refs'] });
  const saturation = (closed.statuses[200] ?? 0) / closed.seconds;
  console.log(`soak: closed loop, ${corpora.length} agents, 30 s: ${saturation.toFixed(1)} batches/s accepted, statuses ${JSON.stringify(closed.statuses)}`);
  let rate = Math.max(1, Math.floor(0.8 * saturation));
  for (let attempt = 0; attempt < 4; attempt++) {
    const open = await openLoop({ url: env.TIERWISE_INGEST_URL, corpora, seconds: 60, rate });
    const total = Object.values(open.statuses).reduce((a, b) => a + b, 0);
    const refused = total - (open.statuses[200] ?? 0);
    const p99 = open.latency.getValueAtPercentile(99) / 1000;
    console.log(`soak: open loop at ${rate} batches/s for 60 s: ${refused} of ${total} not accepted, p99 ${p99.toFixed(0)} ms`);
    if (refused <= REFUSED_SHARE * total && p99 <= MAX_P99_MS) return rate;
    rate = Math.max(1, Math.floor(rate * 0.8));
  }
  die(`no sustainable rate found down to ${rate} batches/s`);
}

let started = false;
const workDir = mkdtempSync(path.join(tmpdir(), 'tierwise-soak-'));
try {
  if (!(await ingestUp())) {
    await tierwise('up');
    started = true;
  }
  const tenant = await seedTenant();
  const { corpora } = await agentCorpora({ trace: args.trace, agents: Number(args.agents), workDir, tenant });
  const rate = args.rate ? Number(args.rate) : await sustainableRate(corpora);
  console.log(`soak: ${args.minutes} minutes at ${rate} batches/s, processes ${JSON.stringify(stackPids())}`);
  const onePass = corpora.reduce((n, c) => n + c.metrics.length + c.refs.length, 0) / rate;
  const seconds = Number(args.minutes) * 60;
  const warmupSeconds = Math.round(Math.max(60, Math.min(onePass, seconds / 2)));
  console.log(`soak: warm-up ${warmupSeconds} s (one pass over the corpus takes ${onePass.toFixed(0)} s at this rate)`);
  const result = await soak({
    url: env.TIERWISE_INGEST_URL, corpora, seconds, rate, warmupSeconds,
    pids: stackPids(), maxGrowthMiB: Number(args['max-growth-mib']),
  });
  process.exitCode = result.grew ? 1 : 0;
} finally {
  rmSync(workDir, { recursive: true, force: true });
  if (started && !args['keep-stack']) await tierwise('down');
}
