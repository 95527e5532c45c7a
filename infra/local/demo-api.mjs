// Shared by demo-wait.mjs and demo-summary.mjs: the demo tenant's API client
// and the replay summaries the edge agent writes (Node >= 20, global fetch).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The demo tenant saved by `./tierwise demo`:
 * {tenant_id, agent_id, agent_token, api_key} from $TIERWISE_STATE_DIR/demo-tenant.json.
 * @throws Error naming the file when it is missing or unreadable.
 */
export function loadDemoTenant() {
  const file = join(requireEnv('TIERWISE_STATE_DIR'), 'demo-tenant.json');
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read the demo tenant ${file} (run ./tierwise demo first): ${err.message}`);
  }
}

/**
 * What one `./tierwise demo|replay` replay sent, from two files the demo writes:
 *   DIR/STEM.json          `tierwise-agent replay --json-summary` (one trace)
 *   DIR/STEM.volumes.json  `tierwise-agent inspect TRACE --json` (its volume names)
 * Returns {summaryFile, trace, reads, writes, readBytes, writeBytes, references
 * (SHARDS-sampled block references sent), sampleRate, traceSeconds, wallSeconds,
 * batchesSent, tierBytes, agentHitRatio (0..1 or null), names}.
 * @throws Error naming the file when the replay failed, lost batches, or the two
 *   files disagree on the I/O counts.
 */
export function loadReplaySummary(summaryFile) {
  const s = readJson(summaryFile);
  // Exit code 3: finished, malformed records skipped (tierwise-agent --help).
  if (s.exit_code !== 0 && s.exit_code !== 3) {
    throw new Error(`${summaryFile}: the replay ended with exit code ${s.exit_code}`);
  }
  if (!Array.isArray(s.traces) || s.traces.length !== 1) {
    throw new Error(`${summaryFile}: expected the summary of exactly one trace`);
  }
  const t = s.traces[0];
  if (t.error) throw new Error(`${summaryFile}: the replay stopped early: ${t.error}`);
  if (t.batches_failed > 0 || t.batches_rejected > 0) {
    throw new Error(`${summaryFile}: ${t.batches_failed} batch(es) failed and ${t.batches_rejected} were rejected `
      + `by ingest (${t.export_problem ?? 'no reason given'}): the stack cannot reach the replayed totals`);
  }
  const inspectFile = summaryFile.replace(/\.json$/, '.volumes.json');
  const inspect = readJson(inspectFile);
  const names = (inspect.volumes ?? []).map((v) => v.name);
  if (names.length !== t.volumes || inspect.reads !== t.reads || inspect.writes !== t.writes) {
    throw new Error(`${inspectFile} (${names.length} volumes, ${inspect.reads} reads, ${inspect.writes} writes) `
      + `disagrees with ${summaryFile} (${t.volumes} volumes, ${t.reads} reads, ${t.writes} writes)`);
  }
  return {
    summaryFile, trace: t.trace, reads: t.reads, writes: t.writes,
    readBytes: t.read_bytes, writeBytes: t.write_bytes,
    references: t.references, sampleRate: s.sample_rate,
    traceSeconds: t.trace_seconds, wallSeconds: t.wall_seconds, batchesSent: t.batches_sent,
    tierBytes: s.tier_bytes, agentHitRatio: t.hit_ratio, names,
  };
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read ${file}: ${err.message}`);
  }
}

/** The value of environment variable NAME; @throws Error naming it when unset or empty. */
export function requireEnv(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (source infra/local/env.sh)`);
  return value;
}

/**
 * GET helper for the Tierwise API ($TIERWISE_API_URL) with the demo tenant's
 * API key. get(path) resolves to the parsed JSON body; a 429 is retried after its Retry-After.
 * @throws Error with the API's {code, message} on a non-2xx answer.
 */
export function apiClient(apiKey = loadDemoTenant().api_key) {
  const base = requireEnv('TIERWISE_API_URL');
  return {
    async get(path) {
      let res;
      // A 429 is waited out as its Retry-After says (at most 5 times), as any API client should.
      for (let attempt = 1; ; attempt++) {
        res = await fetch(base + path, {
          headers: { authorization: `Bearer ${apiKey}` },
          signal: AbortSignal.timeout(30_000),
        });
        if (res.status !== 429 || attempt > 5) break;
        await res.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, 1000 * Math.max(1, Number(res.headers.get('retry-after')) || 1)));
      }
      const body = await res.text();
      if (!res.ok) {
        let detail = body;
        try {
          const err = JSON.parse(body);
          detail = `${err.code}: ${err.message}`;
        } catch { /* not JSON: keep the text */ }
        throw new Error(`GET ${path} answered ${res.status} (${detail})`);
      }
      return JSON.parse(body);
    },
  };
}

/** Every VolumeSummary of the tenant (all pages of GET /v1/volumes, busiest first). */
export async function listVolumes(api) {
  const volumes = [];
  let cursor = '';
  do {
    const page = await api.get(`/v1/volumes?limit=50&sort=ops&cursor=${encodeURIComponent(cursor)}`);
    volumes.push(...page.data);
    cursor = page.next_cursor ?? '';
  } while (cursor);
  return volumes;
}

/**
 * Run `fn` over `items` with at most `width` calls in flight; resolves to the
 * results in input order.
 */
export async function mapPooled(items, width, fn) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return results;
}

/**
 * Run the async `main` of a demo script; on error print "<script>: <message>"
 * (no stack trace: these are messages for people) and exit 1.
 */
export function runMain(script, main) {
  main().catch((err) => {
    console.error(`${script}: ${err.message}`);
    process.exit(1);
  });
}
