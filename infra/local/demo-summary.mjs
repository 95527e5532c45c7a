// Prints what Tierwise computed for replayed traces, as the demo tenant.
//
//   node demo-summary.mjs SUMMARY.json...      the report (below) per trace
//   node demo-summary.mjs --replay-line SUMMARY.json   one line: what was replayed
//
// Per trace with up to 3 volumes, each volume: I/Os, read/write mix by IOPS and
// by bytes, block-size distribution (vscsiStats ioLength bins, % of I/Os and of
// bytes, read and write), hit ratio at the configured tier size, working set,
// miss ratio curve points, recommendation. Per trace with more volumes: fleet
// totals over its volumes and its 10 busiest volumes. All figures come from the
// API ($TIERWISE_API_URL) with the demo tenant's key; volumes are matched to the
// trace by display name (the agent sends names with --send-names).
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import proto from '@tierwise/proto';
import { apiClient, listVolumes, loadReplaySummary, mapPooled, runMain } from './demo-api.mjs';

const DETAILED_MAX_VOLUMES = 3;
const TOP_VOLUMES = 10;
const TOP_BINS = 6;
const MRC_POINTS = 8;
// The stream jobs recommend no tier from fewer sampled references (TierRecommender.MIN_SAMPLED_REFERENCES)
// or below this achievable hit ratio (TierRecommender.MIN_ACHIEVABLE_HIT_RATIO).
const MIN_SAMPLED_REFERENCES = 1000;
const MIN_ACHIEVABLE_HIT_RATIO = 0.05;
const MEDIA = { ram: 'RAM', nvme: 'NVMe' };

const count = new Intl.NumberFormat('en-US');
const pct = (part, whole) => (whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : 'n/a');
const ratio = (r) => (r === null || r === undefined ? 'n/a' : `${(100 * r).toFixed(1)}%`);

/** Bytes in binary units: 1536 -> "1.5 KiB". */
function bytes(n) {
  if (n === null || n === undefined) return 'n/a';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${Number.isInteger(v) ? v : v.toFixed(v < 10 ? 2 : 1)} ${units[i]}`;
}

/**
 * A vscsiStats ioLength bin (label '4096', '65535', '>524288'; bounds from
 * @tierwise/proto, inclusive upper) as an interval of I/O sizes:
 * '4096' -> '4 KiB' (the bin below ends at 4095), '65535' -> '(48 KiB, 64 KiB)',
 * '32768' -> '(16 KiB, 32 KiB]', '>524288' -> '> 512 KiB'.
 */
function binName(label) {
  const bounds = proto.IO_LENGTH_BOUNDS_BYTES;
  if (label === proto.IO_LENGTH_OVERFLOW_LABEL) return `> ${bytes(bounds[bounds.length - 1])}`;
  const upper = Number(label);
  const i = bounds.indexOf(upper);
  const lower = i > 0 ? bounds[i - 1] : 0;
  if (upper - lower === 1) return bytes(upper);
  // Bounds one below a power of two (4095, 65535) end just short of it.
  return (upper + 1) % 512 === 0 ? `(${bytes(lower)}, ${bytes(upper + 1)})` : `(${bytes(lower)}, ${bytes(upper)}]`;
}

/** Seconds for people: "42.0 s", "12.5 min", "2.00 h". */
function duration(seconds) {
  if (seconds < 120) return `${seconds.toFixed(1)} s`;
  if (seconds < 7200) return `${(seconds / 60).toFixed(1)} min`;
  return `${(seconds / 3600).toFixed(2)} h`;
}

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);

function replayLine(s) {
  return `replayed ${count.format(s.reads + s.writes)} I/Os (${count.format(s.reads)} reads, `
    + `${count.format(s.writes)} writes) of ${count.format(s.names.length)} volume(s), `
    + `${duration(s.traceSeconds)} of trace time in ${duration(s.wallSeconds)}, `
    + `${count.format(s.batchesSent)} batches sent; hit ratio seen by the agent ${ratio(s.agentHitRatio)} `
    + `at a ${bytes(s.tierBytes)} tier`;
}

/** Read/write mix lines from totals {read_ops, write_ops, read_bytes, write_bytes}. */
function mixLines(io, indent) {
  const ops = io.read_ops + io.write_ops;
  const b = io.read_bytes + io.write_bytes;
  return [
    `${indent}I/Os             ${count.format(ops)} (${count.format(io.read_ops)} reads, ${count.format(io.write_ops)} writes), ${bytes(b)} moved`,
    `${indent}read/write mix   ${pct(io.read_ops, ops)} / ${pct(io.write_ops, ops)} by IOPS, `
      + `${pct(io.read_bytes, b)} / ${pct(io.write_bytes, b)} by bytes`,
  ];
}

/** Block-size table from [{direction, bin_label, ops, bytes}], busiest bins first. */
function blockSizeLines(rows, indent) {
  const totalOps = rows.reduce((n, r) => n + r.ops, 0);
  const totalBytes = rows.reduce((n, r) => n + r.bytes, 0);
  const bins = new Map();
  for (const r of rows) {
    const bin = bins.get(r.bin_label) ?? { label: r.bin_label, read: { ops: 0, bytes: 0 }, write: { ops: 0, bytes: 0 } };
    bin[r.direction].ops += r.ops;
    bin[r.direction].bytes += r.bytes;
    bins.set(r.bin_label, bin);
  }
  const top = [...bins.values()]
    .sort((a, b) => b.read.ops + b.write.ops - (a.read.ops + a.write.ops))
    .slice(0, TOP_BINS);
  const lines = [
    `${indent}block sizes      top ${top.length} of ${bins.size} bins, share of all I/Os (IOPS) and of all bytes:`,
    `${indent}  ${pad('I/O size', 20)}${lpad('read IOPS', 11)}${lpad('read bytes', 12)}${lpad('write IOPS', 12)}${lpad('write bytes', 13)}`,
  ];
  for (const bin of top) {
    lines.push(`${indent}  ${pad(binName(bin.label), 20)}${lpad(pct(bin.read.ops, totalOps), 11)}`
      + `${lpad(pct(bin.read.bytes, totalBytes), 12)}${lpad(pct(bin.write.ops, totalOps), 12)}`
      + `${lpad(pct(bin.write.bytes, totalBytes), 13)}`);
  }
  return lines;
}

/** At most MRC_POINTS points spread over the curve, always with the last one. */
function mrcLine(points) {
  const step = Math.max(1, Math.ceil(points.length / MRC_POINTS));
  const shown = points.filter((_, i) => i % step === 0 || i === points.length - 1);
  return shown.map((p) => `${bytes(p.cache_bytes)} -> ${p.miss_ratio.toFixed(3)}`).join(', ');
}

function volumeLines(d) {
  const ind = '    ';
  const lines = [`  volume ${d.display_name ?? d.volume_id} (id ${d.volume_id}, host ${d.host_id})`];
  lines.push(...mixLines(d.io, ind));
  lines.push(...blockSizeLines(d.block_sizes, ind));
  lines.push(`${ind}hit ratio        ${ratio(d.cache.hit_ratio)} (reads ${ratio(d.cache.read_hit_ratio)}) `
    + `at the configured ${bytes(d.cache.capacity_bytes)} tier`);
  const ws = d.working_set;
  lines.push(ws
    ? `${ind}working set      ${bytes(ws.wss_bytes)} (read ${bytes(ws.wss_read_bytes)}, write ${bytes(ws.wss_write_bytes)}), `
      + `SHARDS sampling rate ${Number(ws.sampling_rate.toPrecision(3))}, ${count.format(ws.sampled_references)} sampled references`
    : `${ind}working set      not computed yet`);
  lines.push(d.mrc
    ? `${ind}miss ratio curve (${d.mrc.method}) cache size -> miss ratio: ${mrcLine(d.mrc.points)}`
    : `${ind}miss ratio curve not computed yet`);
  for (const c of d.mrc?.curves ?? []) {
    if (c.eviction !== 'lru') lines.push(`${ind}  under ${pad(c.eviction.toUpperCase(), 8)}${mrcLine(c.points)}`);
  }
  const r = d.recommendation;
  if (r) {
    const eviction = r.eviction ? ` ${r.eviction.toUpperCase()} eviction,` : '';
    lines.push(`${ind}recommendation   ${bytes(r.tier_bytes)} ${MEDIA[r.media] ?? r.media} tier,${eviction} ${r.policy}: predicted hit ratio `
      + `${ratio(r.predicted_hit_ratio)} (target ${ratio(r.target_hit_ratio)}, infinite cache ${ratio(r.achievable_hit_ratio)})`);
    if (r.tier_write_bytes_per_day != null) {
      lines.push(`${ind}tier writes      ${bytes(r.tier_write_bytes_per_day)} per day (${r.drive_writes_per_day.toFixed(1)} drive writes per day of a `
        + `${bytes(r.tier_bytes)} device)`);
    }
    lines.push(`${ind}                 ${r.explanation}`);
  } else {
    lines.push(`${ind}recommendation   none yet`);
  }
  return lines;
}

function fleetLines(details, volumes) {
  const sum = (f) => details.reduce((n, d) => n + f(d), 0);
  const io = {
    read_ops: sum((d) => d.io.read_ops), write_ops: sum((d) => d.io.write_ops),
    read_bytes: sum((d) => d.io.read_bytes), write_bytes: sum((d) => d.io.write_bytes),
  };
  const hits = sum((d) => d.cache.hits);
  const lookups = hits + sum((d) => d.cache.misses);
  const ind = '    ';
  const lines = [`  fleet of ${count.format(details.length)} volumes`];
  lines.push(...mixLines(io, ind));
  lines.push(...blockSizeLines(details.flatMap((d) => d.block_sizes), ind));
  lines.push(`${ind}hit ratio        ${pct(hits, lookups)} at the configured tier sizes`);
  const withWs = details.filter((d) => d.working_set);
  const withRec = details.filter((d) => d.recommendation);
  lines.push(`${ind}working sets     ${bytes(sum((d) => d.working_set?.wss_bytes ?? 0))} in total over the `
    + `${count.format(withWs.length)} volumes that have one (the others had no block sampled by SHARDS)`);
  lines.push(`${ind}recommendations  ${count.format(withRec.length)} volumes, ${bytes(sum((d) => d.recommendation?.tier_bytes ?? 0))} `
    + `of tier in total (${withRec.filter((d) => d.recommendation.media === 'ram').length} RAM, `
    + `${withRec.filter((d) => d.recommendation.media === 'nvme').length} NVMe)`);
  if (withRec.length < withWs.length) {
    const most = Math.max(...withWs.map((d) => d.working_set.sampled_references));
    lines.push(`${ind}                 (a recommendation needs ${count.format(MIN_SAMPLED_REFERENCES)} sampled references of a volume `
      + `and an unlimited tier hitting at least ${MIN_ACHIEVABLE_HIT_RATIO * 100} %; the most sampled references any volume here `
      + `has is ${count.format(most)})`);
  }
  lines.push(`  ${TOP_VOLUMES} busiest volumes:`);
  lines.push(`    ${pad('volume', 14)}${lpad('I/Os', 9)}${lpad('reads', 8)}${lpad('bytes', 12)}${lpad('hit ratio', 11)}`
    + `${lpad('working set', 13)}${lpad('recommended', 13)}`);
  for (const v of volumes.slice(0, TOP_VOLUMES)) {
    const ops = v.read_ops + v.write_ops;
    lines.push(`    ${pad(v.display_name ?? v.volume_id.slice(0, 12), 14)}${lpad(count.format(ops), 9)}`
      + `${lpad(pct(v.read_ops, ops), 8)}${lpad(bytes(v.read_bytes + v.write_bytes), 12)}${lpad(ratio(v.hit_ratio), 11)}`
      + `${lpad(bytes(v.wss_bytes), 13)}${lpad(bytes(v.recommended_tier_bytes), 13)}`);
  }
  return lines;
}

async function main() {
  const { values, positionals } = parseArgs({
    options: { 'replay-line': { type: 'boolean' } },
    allowPositionals: true,
  });
  const summaries = positionals.map(loadReplaySummary);
  if (values['replay-line']) {
    for (const s of summaries) console.log(replayLine(s));
    return;
  }
  const api = apiClient();
  const all = await listVolumes(api);
  for (const s of summaries) {
    const names = new Set(s.names);
    const volumes = all.filter((v) => names.has(v.display_name)); // busiest first
    const details = await mapPooled(volumes, 8, (v) => api.get(`/v1/volumes/${encodeURIComponent(v.volume_id)}`));
    console.log(`\n== ${basename(s.trace)}: ${replayLine(s)}`);
    const lines = volumes.length <= DETAILED_MAX_VOLUMES ? details.flatMap(volumeLines) : fleetLines(details, volumes);
    console.log(lines.join('\n'));
  }
  for (const line of [...(await clusterLines(api)), ...(await hostLines(api))]) console.log(line);
  console.log(`\nPortal: ${process.env.TIERWISE_WEB_URL}/volumes`);
}

const plural = (n, word) => `${count.format(n)} ${word}${n === 1 ? '' : 's'}`;

/** The demo host's shared tier (cluster demo-cluster): one tier recommended from all its volumes' merged stream. */
async function clusterLines(api) {
  const lines = [];
  for (const c of (await api.get('/v1/clusters?limit=10')).data) {
    const detail = await api.get(`/v1/clusters/${encodeURIComponent(c.cluster_id)}/working-set`);
    lines.push(`\n== cluster ${c.cluster_id}: ${plural(c.volumes, 'volume')} on ${plural(c.hosts, 'host')} sharing one tier`);
    lines.push(...sharedTierLines(detail.recommendation, c.volumes_recommended_tier_bytes));
  }
  return lines;
}

/** Each host's tier device, shared by its volumes: the tier recommended from their merged stream. */
async function hostLines(api) {
  const lines = [];
  for (const h of (await api.get('/v1/hosts?limit=10')).data) {
    const detail = await api.get(`/v1/hosts/${encodeURIComponent(h.host_id)}/working-set`);
    lines.push(`\n== host ${h.display_name ?? h.host_id}: ${plural(h.volumes, 'volume')} sharing its tier device`);
    lines.push(...sharedTierLines(detail.recommendation, detail.volumes_recommended_tier_bytes));
  }
  return lines;
}

/** A shared tier's recommendation (a cluster's or a host's), or "none yet". */
function sharedTierLines(r, volumesRecommendedBytes) {
  if (!r) return ['    shared tier      none yet'];
  const lines = [`    shared tier      ${bytes(r.tier_bytes)} ${MEDIA[r.media] ?? r.media} tier, ${r.eviction.toUpperCase()} eviction, ${r.policy}: `
    + `predicted hit ratio ${ratio(r.predicted_hit_ratio)} of the merged stream (target ${ratio(r.target_hit_ratio)})`];
  if (volumesRecommendedBytes != null) {
    lines.push(`                     a tier per volume would take ${bytes(volumesRecommendedBytes)} in all`);
  }
  if (r.tier_write_bytes_per_day != null) {
    lines.push(`    tier writes      ${bytes(r.tier_write_bytes_per_day)} per day (${r.drive_writes_per_day.toFixed(1)} drive writes per day)`);
  }
  return lines;
}

runMain('demo-summary', main);
