#!/usr/bin/env node
/**
 * `tierwise`: the Tierwise CLI over the SDK. Authenticates with an API key from
 * $TIERWISE_API_KEY or the config file `tierwise login` writes (mode 0600); the api URL from
 * $TIERWISE_API_URL or that file. Exit status: 0 done, 1 the api refused (message, code and
 * request id on stderr), 2 bad usage or configuration.
 */
import { writeFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { type Policy, type Recommendation, type RecommendationHistoryEntry, Tierwise, TierwiseApiError, type VolumeSummary } from '../index.js';
import { CliError, DEFAULT_API_URL, loadCredentials, saveCredentials } from './config.js';
import { printJson, printTable } from './output.js';
import { formatBytes, formatBytesPerSecond, formatMicroseconds, formatRatio, formatRatioError, parseBytes, parseMode } from './units.js';

const USER_AGENT = 'tierwise-cli/0.1.0';

type Eviction = Policy['eviction'];
/** The api's eviction policies, for --eviction's choices; the type check fails when the api adds one. */
const EVICTIONS = ['lru', 's3-fifo', 'arc', '2q', 'sieve'] as const satisfies readonly Eviction[];
const everyEvictionListed: Exclude<Eviction, (typeof EVICTIONS)[number]> extends never ? true : never = true;
void everyEvictionListed;

function client(): Tierwise {
  const { apiKey, apiUrl } = loadCredentials();
  return new Tierwise({ apiKey, baseUrl: apiUrl, userAgent: USER_AGENT });
}

function positiveInt(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 200) {
    throw new InvalidArgumentError('must be an integer from 1 to 200');
  }
  return value;
}

/** A page of a list, or every item with --all; tells how to get the next page. */
async function listed<T>(options: { all?: boolean; limit?: number; cursor?: string }, page: (query: { limit?: number; cursor?: string }) => Promise<{ data: T[]; next_cursor: string | null }>, iterate: () => AsyncGenerator<T>): Promise<T[]> {
  if (options.all) {
    const items: T[] = [];
    for await (const item of iterate()) {
      items.push(item);
    }
    return items;
  }
  const result = await page({ limit: options.limit, cursor: options.cursor });
  if (result.next_cursor) {
    process.stderr.write(`more: --cursor ${result.next_cursor} (or --all)\n`);
  }
  return result.data;
}

const pageOptions = (command: Command): Command =>
  command
    .option('--limit <n>', 'items per page, 1-200', positiveInt)
    .option('--cursor <cursor>', 'the page after this cursor (printed after a page)')
    .option('--all', 'every item, page after page')
    .option('--json', 'print JSON');

/** The eviction policy a prediction is for, or '-' for an older (LRU) prediction that names none. */
const formatEviction = (eviction: Eviction | null): string => eviction ?? '-';

const recommendationColumns: [string, (r: Recommendation) => string][] = [
  ['VOLUME', (r) => r.volume_id],
  ['HOST', (r) => r.host_id],
  ['TIER', (r) => formatBytes(r.tier_bytes)],
  ['EVICTION', (r) => formatEviction(r.eviction)],
  ['MEDIA', (r) => r.media],
  ['POLICY', (r) => r.policy],
  ['PREDICTED HIT RATIO', (r) => formatRatio(r.predicted_hit_ratio)],
  ['STATUS', (r) => r.status],
  ['CREATED', (r) => r.created_at],
];

/** What a prediction expects of the tier, and what was measured (`recommendations show`). */
const predictionColumns: [string, (r: Recommendation) => string][] = [
  ['WINDOW', (r) => r.window_name],
  ['REPLICAS', (r) => String(r.replicas)],
  ['OFFLOADED IOPS', (r) => r.offloaded_iops.toFixed(1)],
  ['OFFLOADED THROUGHPUT', (r) => formatBytesPerSecond(r.offloaded_bytes_per_second)],
  ['PREDICTED LATENCY', (r) => formatMicroseconds(r.predicted_latency_us)],
  ['DATASTORE LATENCY', (r) => formatMicroseconds(r.datastore_latency_us)],
  ['MEASURED HIT RATIO', (r) => formatRatio(r.measured_hit_ratio)],
  ['ERROR', (r) => formatRatioError(r.hit_ratio_error)],
];

const historyColumns: [string, (r: RecommendationHistoryEntry) => string][] = [
  ['CREATED', (r) => r.created_at],
  ['WINDOW', (r) => r.window_name],
  ['TIER', (r) => formatBytes(r.tier_bytes)],
  ['EVICTION', (r) => formatEviction(r.eviction)],
  ['MEDIA', (r) => r.media],
  ['POLICY', (r) => r.policy],
  ['PREDICTED HIT RATIO', (r) => formatRatio(r.predicted_hit_ratio)],
  ['MEASURED HIT RATIO', (r) => formatRatio(r.measured_hit_ratio)],
  ['ERROR', (r) => formatRatioError(r.hit_ratio_error)],
];

const program = new Command('tierwise')
  .description('Tierwise: hosts, volumes, tier recommendations and cache policies of your tenant')
  .version('0.1.0')
  .showHelpAfterError();

program
  .command('login')
  .description('check an API key against the api and save it (with the api URL) to the config file, mode 0600')
  .requiredOption('--api-key <key>', 'a tenant API key (twk_...)')
  .option('--api-url <url>', 'the api', process.env.TIERWISE_API_URL ?? DEFAULT_API_URL)
  .action(async (options: { apiKey: string; apiUrl: string }) => {
    await new Tierwise({ apiKey: options.apiKey, baseUrl: options.apiUrl, userAgent: USER_AGENT }).fleet.summary();
    const path = saveCredentials({ apiKey: options.apiKey, apiUrl: options.apiUrl });
    process.stdout.write(`API key ${options.apiKey.slice(0, 12)}... works; saved to ${path} (mode 600)\n`);
  });

const hosts = program.command('hosts').description('hosts of the tenant');
pageOptions(hosts.command('list').description('hosts with their volume counts'))
  .option('--seen-since <time>', 'only hosts that sent data since this RFC 3339 time')
  .action(async (options: { all?: boolean; limit?: number; cursor?: string; json?: boolean; seenSince?: string }) => {
    const api = client();
    const filter = { seen_since: options.seenSince };
    const items = await listed(options, (page) => api.hosts.list({ ...filter, ...page }), () => api.hosts.iterate(filter));
    if (options.json) return printJson(items);
    printTable(items, [
      ['HOST', (h) => h.host_id],
      ['NAME', (h) => h.display_name ?? '-'],
      ['VOLUMES', (h) => String(h.volumes)],
      ['LAST SEEN', (h) => h.last_seen],
    ]);
  });

const volumes = program.command('volumes').description('volumes of the tenant');
pageOptions(volumes.command('list').description('volumes with I/O, hit ratio, working set and recommended tier'))
  .option('--host <hostId>', 'only volumes of this host')
  .addOption(new Option('--sort <order>', 'descending order').choices(['ops', 'wss', 'hit_ratio']).default('ops'))
  .action(async (options: { all?: boolean; limit?: number; cursor?: string; json?: boolean; host?: string; sort: 'ops' | 'wss' | 'hit_ratio' }) => {
    const api = client();
    const filter = { host_id: options.host, sort: options.sort };
    const items = await listed(options, (page) => api.volumes.list({ ...filter, ...page }), () => api.volumes.iterate(filter));
    if (options.json) return printJson(items);
    printTable<VolumeSummary>(items, [
      ['VOLUME', (v) => v.volume_id],
      ['HOST', (v) => v.host_id],
      ['NAME', (v) => v.display_name ?? '-'],
      ['READ OPS', (v) => String(v.read_ops)],
      ['WRITE OPS', (v) => String(v.write_ops)],
      ['HIT RATIO', (v) => formatRatio(v.hit_ratio)],
      ['WSS', (v) => formatBytes(v.wss_bytes)],
      ['RECOMMENDED TIER', (v) => formatBytes(v.recommended_tier_bytes)],
    ]);
  });
volumes
  .command('show <volumeId>')
  .description('a volume in full (JSON): I/O, cache, block sizes, working set, miss ratio curve, recommendation')
  .action(async (volumeId: string) => printJson(await client().volumes.get(volumeId)));
volumes
  .command('workload <volumeId>')
  .description("a volume's vscsiStats workload (JSON): seek distance, outstanding I/Os, interarrival, randomness, block alignment (default the last 24 hours)")
  .option('--from <time>', 'start, RFC 3339, inclusive')
  .option('--to <time>', 'end, RFC 3339, exclusive (default now)')
  .action(async (volumeId: string, options: { from?: string; to?: string }) =>
    printJson(await client().volumes.workload(volumeId, { from: options.from, to: options.to })),
  );

volumes
  .command('fio-job <volumeId>')
  .description("an fio job file that replays the volume's measured mix: read share, block sizes, random share, queue depth, working set, IOPS")
  .option('--from <time>', 'start, RFC 3339, inclusive (default: 24 hours before --to)')
  .option('--to <time>', 'end, RFC 3339, exclusive (default now)')
  .option('--no-rate', 'leave out rate_iops: run as fast as the device goes')
  .option('-o, --output <file>', 'write to this file instead of stdout')
  .action(async (volumeId: string, options: { from?: string; to?: string; rate: boolean; output?: string }) => {
    const job = await client().volumes.fioJob(volumeId, { from: options.from, to: options.to, rate: options.rate ? 'true' : 'false' });
    if (options.output) {
      writeFileSync(options.output, job);
      process.stderr.write(`wrote ${options.output}: run it with fio --filename=/path/to/a/test/file ${options.output}\n`);
    } else {
      process.stdout.write(job);
    }
  });

volumes
  .command('policy-effect <volumeId>')
  .description("how latency and CPU moved across the volume's latest applied policy change: CPU that rose as latency fell is work done")
  .option('--json', 'print the whole answer as JSON')
  .action(async (volumeId: string, options: { json?: boolean }) => {
    const effect = await client().volumes.policyEffect(volumeId);
    if (options.json) printJson(effect);
    else process.stdout.write(`${effect.verdict}: ${effect.statement}\n`);
  });

const recommendations = program.command('recommendations').description('tier recommendations');
pageOptions(recommendations.command('list').description('recommendations, newest first'))
  .addOption(new Option('--status <status>', 'only this status').choices(['open', 'applied', 'dismissed']))
  .addOption(new Option('--media <media>', 'only this tier media').choices(['ram', 'nvme']))
  .action(async (options: { all?: boolean; limit?: number; cursor?: string; json?: boolean; status?: 'open' | 'applied' | 'dismissed'; media?: 'ram' | 'nvme' }) => {
    const api = client();
    const filter = { status: options.status, media: options.media };
    const items = await listed(options, (page) => api.recommendations.list({ ...filter, ...page }), () => api.recommendations.iterate(filter));
    if (options.json) return printJson(items);
    printTable(items, recommendationColumns);
  });
recommendations
  .command('show <volumeId>')
  .description("a volume's recommendation with its explanation and inputs")
  .option('--json', 'print JSON')
  .action(async (volumeId: string, options: { json?: boolean }) => {
    const recommendation = await client().recommendations.get(volumeId);
    if (options.json) return printJson(recommendation);
    printTable([recommendation], recommendationColumns);
    printTable([recommendation], predictionColumns);
    process.stdout.write(`\n${recommendation.explanation}\n`);
  });
pageOptions(recommendations.command('history <volumeId>').description("a volume's past predictions, newest first: predicted against measured hit ratio"))
  .action(async (volumeId: string, options: { all?: boolean; limit?: number; cursor?: string; json?: boolean }) => {
    const api = client();
    const items = await listed(options, (page) => api.recommendations.history(volumeId, page), () => api.recommendations.iterateHistory(volumeId));
    if (options.json) return printJson(items);
    printTable(items, historyColumns);
  });
recommendations
  .command('apply <volumeId>')
  .description("apply a volume's recommendation: it becomes the volume's desired cache policy")
  .addOption(new Option('--eviction <policy>', "eviction policy of the tier (default: the api's, the recommended one)").choices(EVICTIONS))
  .option('--copies <n>', 'n of WB+n when the recommendation is write-back', (text) => Number(text), 1)
  .option('--idempotency-key <key>', 'retry-safe key (default: a new UUID)')
  .option('--json', 'print JSON')
  .action(async (volumeId: string, options: { eviction?: Eviction; copies: number; idempotencyKey?: string; json?: boolean }) => {
    const applied = await client().recommendations.apply(volumeId, { eviction: options.eviction, write_back_copies: options.copies }, { idempotencyKey: options.idempotencyKey });
    if (options.json) return printJson(applied);
    const { policy } = applied;
    process.stdout.write(
      `applied: volume ${volumeId} policy version ${policy.version}: ${policy.mode}${policy.write_back_copies === null ? '' : `+${policy.write_back_copies}`}, ` +
        `${formatBytes(policy.tier_bytes)} ${policy.media}, eviction ${policy.eviction}\n`,
    );
  });
recommendations
  .command('dismiss <volumeId>')
  .description("dismiss a volume's recommendation (until it changes)")
  .option('--reason <text>', 'why, kept in the audit log')
  .action(async (volumeId: string, options: { reason?: string }) => {
    const dismissed = await client().recommendations.dismiss(volumeId, options.reason);
    process.stdout.write(`dismissed: recommendation of volume ${volumeId} (created ${dismissed.created_at})\n`);
  });

const policy = program.command('policy').description("volumes' cache policies");
policy
  .command('show <volumeId>')
  .description('the desired policy and the version the agent applied')
  .action(async (volumeId: string) => printJson(await client().volumes.getPolicy(volumeId)));
policy
  .command('set <volumeId>')
  .description('set the desired cache policy of a volume (a new version)')
  .requiredOption('--mode <mode>', 'write-through (wt) or write-back+N (wb+N)')
  .requiredOption('--tier-size <size>', 'tier size: bytes or a binary unit, e.g. 64GiB')
  .addOption(new Option('--media <media>', 'tier media').choices(['ram', 'nvme']).makeOptionMandatory())
  .addOption(new Option('--eviction <policy>', "eviction policy (default: the api's, the engine's default)").choices(EVICTIONS))
  .option('--json', 'print JSON')
  .action(async (volumeId: string, options: { mode: string; tierSize: string; media: 'ram' | 'nvme'; eviction?: Eviction; json?: boolean }) => {
    const set = await client().volumes.setPolicy(volumeId, { ...parseMode(options.mode), tier_bytes: parseBytes(options.tierSize), media: options.media, eviction: options.eviction });
    if (options.json) return printJson(set);
    process.stdout.write(`volume ${volumeId}: policy version ${set.version} (${set.mode}, ${formatBytes(set.tier_bytes)} ${set.media}, ${set.eviction}); applied version ${set.applied_version ?? 'none yet'}\n`);
  });

const metrics = program.command('metrics').description('interval metrics');
metrics
  .command('export <volumeId>')
  .description("a volume's 10-second interval metrics as CSV (at most 7 days; default the last 24 hours)")
  .option('--from <time>', 'start, RFC 3339, inclusive')
  .option('--to <time>', 'end, RFC 3339, exclusive (default now)')
  .option('-o, --output <file>', 'write to this file instead of stdout')
  .action(async (volumeId: string, options: { from?: string; to?: string; output?: string }) => {
    const csv = await client().volumes.exportMetricsCsv(volumeId, { from: options.from, to: options.to });
    if (options.output) {
      writeFileSync(options.output, csv);
      process.stderr.write(`wrote ${csv.split('\n').filter(Boolean).length - 1} intervals to ${options.output}\n`);
    } else {
      process.stdout.write(csv);
    }
  });

try {
  await program.parseAsync();
} catch (error) {
  if (error instanceof TierwiseApiError) {
    process.stderr.write(`tierwise: error: ${error.message} (${error.code}, HTTP ${error.status}, request ${error.requestId ?? 'unknown'})\n`);
    process.exitCode = 1;
  } else if (error instanceof CliError) {
    process.stderr.write(`tierwise: error: ${error.message}\n`);
    process.exitCode = 2;
  } else {
    throw error;
  }
}
