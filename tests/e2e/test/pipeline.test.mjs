// The spine end to end on a real trace: the CloudPhysics vSCSI trace replayed by
// the agent, through ingest, Kafka and the Flink jobs into PostgreSQL, read back
// through the api. Figures from ../shared/traces/README.md.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStack, seedTenant, replay, waitForVolumes, waitFor, apiGet, runAgent, TRACES } from '../lib/stack.mjs';
import { alignmentOf, readVscsi, workloadOf } from '../lib/vscsi-workload.mjs';
import { readVscsiStatsCsv } from '../lib/vscsistats-csv.mjs';

const TRACE = path.join(TRACES, 'cloudphysics_w_sample.vscsi');
const EXACT_DISTINCT_BLOCKS = 269_210;
const MiB = 1 << 20;

let stack;
let tenant;
let volume;
let agentRun;

before(async () => {
  stack = await startStack();
  tenant = await seedTenant('e2e-pipeline');
  agentRun = await replay(tenant, [TRACE]);
  assert.equal(agentRun.code, 0, `agent replay failed:\n${agentRun.stderr}`);
  await waitForVolumes(tenant, { volumeCount: 1, ops: 113_872 });
  const list = await apiGet(tenant.api_key, '/v1/volumes');
  // The block-size totals are rewritten less often than the I/O totals: at most once a minute,
  // and 15 s after the volume's last interval (docs/rollups.md, "When rows are written").
  volume = await waitFor('the block-size totals of every I/O', async () => {
    const { body } = await apiGet(tenant.api_key, `/v1/volumes/${list.body.data[0].volume_id}`);
    return body.block_sizes.reduce((sum, b) => sum + b.ops, 0) === 113_872 ? body : false;
  }, { timeoutMs: 60_000 });
});

after(async () => {
  await stack?.stop();
});

test('every I/O of the trace arrives once, split by direction as recorded', () => {
  assert.equal(volume.io.read_ops, 46_974);
  assert.equal(volume.io.write_ops, 66_898);
  assert.equal(volume.display_name, 'cloudphysics_w_sample');
  const blockSizeOps = volume.block_sizes.reduce((sum, b) => sum + b.ops, 0);
  assert.equal(blockSizeOps, 113_872, 'block-size distribution counts every I/O once');
  const bytes = volume.block_sizes.reduce((sum, b) => sum + b.bytes, 0);
  assert.equal(bytes, volume.io.read_bytes + volume.io.write_bytes);
  const ops64k = volume.block_sizes.filter((b) => b.bin_label === '65536').reduce((s, b) => s + b.ops, 0);
  assert.equal(ops64k, 38_389, '64 KiB I/Os (the trace README counts 38,389)');
});

test('working set size matches the exact distinct 4 KiB block count within 5 %', () => {
  const exact = EXACT_DISTINCT_BLOCKS * 4096;
  const error = Math.abs(volume.working_set.wss_bytes - exact) / exact;
  console.log(`WSS ${(volume.working_set.wss_bytes / MiB).toFixed(1)} MiB vs exact ${(exact / MiB).toFixed(1)} MiB (error ${(error * 100).toFixed(2)} %)`);
  assert.ok(error <= 0.05, `WSS error ${(error * 100).toFixed(2)} % > 5 %`);
});

test('the hit ratio in the api is the one the agent measured at its tier size', () => {
  const s = agentRun.summary.traces[0];
  const measured = s.hits / (s.hits + s.misses);
  assert.ok(Math.abs(volume.cache.hit_ratio - measured) < 1e-9, `${volume.cache.hit_ratio} != ${measured}`);
});

test("the pipeline's SHARDS MRC follows the exact LRU MRC (MAE <= 0.03, 16 MiB..1 GiB)", async () => {
  const points = volume.mrc.points.filter((p) => p.cache_bytes >= 16 * MiB && p.cache_bytes <= 1024 * MiB);
  assert.ok(points.length >= 8, `only ${points.length} MRC points between 16 MiB and 1 GiB`);
  const sizes = points.map((p) => `${p.cache_bytes}`).join(',');
  const exactRun = await runAgent(['mrc', TRACE, '--exact', '--sizes', sizes]);
  assert.equal(exactRun.code, 0, exactRun.stderr);
  const exact = JSON.parse(exactRun.stdout);
  const errors = points.map((p, i) => Math.abs(p.miss_ratio - exact[i].miss_ratio));
  const mae = errors.reduce((a, b) => a + b, 0) / errors.length;
  console.log(`MRC MAE ${mae.toFixed(4)} over ${points.length} sizes (max ${Math.max(...errors).toFixed(4)})`);
  assert.ok(mae <= 0.03, `MAE ${mae} > 0.03`);
});

test('a recommendation reaches 90 % of the achievable hit ratio at the smallest listed size', () => {
  const r = volume.recommendation;
  assert.ok(r, 'a recommendation exists');
  assert.ok(r.tier_bytes > 0);
  assert.ok(r.predicted_hit_ratio >= r.target_hit_ratio - 1e-9, `${r.predicted_hit_ratio} < target ${r.target_hit_ratio}`);
  assert.ok(Math.abs(r.target_hit_ratio - 0.9 * r.achievable_hit_ratio) < 1e-9);
  assert.match(r.explanation, /\S/);
});

test("the api's vscsiStats seek-distance and interarrival histograms are the trace's, bucket for bucket", async () => {
  const reference = workloadOf(readVscsi(TRACE));
  // The replay ends at the interval before it started; a day from an hour boundary before the trace's
  // start is read at 1 h, every window of the replay in it.
  const from = new Date(Math.floor((Date.now() - 3 * 3600_000) / 3600_000) * 3600_000);
  const to = new Date(from.getTime() + 24 * 3600_000);
  const commands = 113_872 - 1;
  const workload = await waitFor('every command in the rollups\' seek distances', async () => {
    const { body } = await apiGet(tenant.api_key, `/v1/volumes/${volume.volume_id}/workload?from=${from.toISOString()}&to=${to.toISOString()}`);
    return body.seek_distance.all?.reduce((a, b) => a + b, 0) === commands ? body : false;
  }, { timeoutMs: 60_000 });
  assert.deepEqual(workload.seek_distance.all, reference.seek.all);
  assert.deepEqual(workload.seek_distance.read, reference.seek.read);
  assert.deepEqual(workload.seek_distance.write, reference.seek.write);
  assert.deepEqual(workload.seek_distance_closest.all, reference.closest);
  assert.deepEqual(workload.interarrival_us.all, reference.interarrival.all);
  assert.deepEqual(workload.interarrival_us.read, reference.interarrival.read);
  assert.deepEqual(workload.interarrival_us.write, reference.interarrival.write);
  const sequential = reference.seek.all[17] / commands;
  assert.ok(Math.abs(workload.randomness.sequential_share - sequential) < 1e-12);
  console.log(`seek distance: ${(sequential * 100).toFixed(1)} % sequential, ${(workload.randomness.within_128_sectors_share * 100).toFixed(1)} % within 128 sectors`);
  // Block alignment: the trace's start sectors, bucket for bucket; most misaligned commands start
  // 7 sectors (3584 bytes) into their block, a partition at sector 63: realignment advised.
  const alignment = alignmentOf(readVscsi(TRACE));
  assert.deepEqual(workload.alignment.start_sector.all, alignment.all);
  assert.deepEqual(workload.alignment.start_sector.read, alignment.read);
  assert.deepEqual(workload.alignment.start_sector.write, alignment.write);
  assert.equal(workload.alignment.dominant_offset_bytes, 3584);
  assert.equal(workload.alignment.realignment_advised, true);
  console.log(`alignment: ${(workload.alignment.misaligned_share * 100).toFixed(1)} % misaligned, ${(workload.alignment.extra_block_share * 100).toFixed(1)} % more 4 KiB blocks`);
});

test('a trace with a planted 512-byte offset is flagged for realignment by 512 bytes; the trace as recorded is not', async () => {
  // The MSR trace (byte offsets, mostly 4 KiB aligned) as recorded and with every offset moved 512
  // bytes on, as if its partition started one sector late; each replayed for a tenant of its own.
  const dir = await mkdtemp(path.join(tmpdir(), 'tierwise-alignment-'));
  const recorded = await readFile(path.join(TRACES, 'msr_hm_0_sample1000.csv'), 'utf8');
  const shifted = path.join(dir, 'hm_0_shifted.csv');
  await writeFile(shifted, recorded.replace(/^([^,]*,[^,]*,[^,]*,[^,]*,)(\d+)/gm, (_, head, offset) => `${head}${BigInt(offset) + 512n}`));
  const alignmentOfReplay = async (name, trace) => {
    const t = await seedTenant(name);
    const run = await replay(t, [trace]);
    assert.equal(run.code, 0, run.stderr);
    await waitForVolumes(t, { volumeCount: 1, ops: 1000, withWorkingSet: false });
    const id = (await apiGet(t.api_key, '/v1/volumes')).body.data[0].volume_id;
    return waitFor(`the alignment of ${name}`, async () => {
      const { body } = await apiGet(t.api_key, `/v1/volumes/${id}/workload?from=${new Date(Date.now() - 24 * 3600_000).toISOString()}`);
      return body.alignment?.commands === 1000 ? body.alignment : false;
    }, { timeoutMs: 60_000 });
  };
  const planted = await alignmentOfReplay('e2e-alignment-planted', shifted);
  assert.equal(planted.dominant_offset_bytes, 512);
  assert.equal(planted.realignment_advised, true);
  const asRecorded = await alignmentOfReplay('e2e-alignment-recorded', path.join(TRACES, 'msr_hm_0_sample1000.csv'));
  assert.equal(asRecorded.realignment_advised, false);
  assert.ok(planted.misaligned_share > 0.9 && asRecorded.misaligned_share < 0.1, `${planted.misaligned_share}, ${asRecorded.misaligned_share}`);
  console.log(`planted 512-byte offset: ${(planted.misaligned_share * 100).toFixed(1)} % misaligned, ${(planted.extra_block_share * 100).toFixed(1)} % more blocks; as recorded ${(asRecorded.misaligned_share * 100).toFixed(1)} %, ${(asRecorded.extra_block_share * 100).toFixed(1)} %`);
});

test('import-vscsistats: every histogram of the vscsiStats sample, bucket for bucket, in the api, on a volume marked imported', async () => {
  const file = path.join(TRACES, 'vscsistats_histograms_sample.csv');
  const h = readVscsiStatsCsv(file);
  const t = await seedTenant('e2e-vscsistats');
  const dir = await mkdtemp(path.join(tmpdir(), 'tierwise-vscsistats-'));
  const run = await runAgent(['import-vscsistats', file, '--ingest', process.env.TIERWISE_INGEST_URL, '--token', t.agent_token,
    '--key-file', path.join(dir, 'agent.key'), '--host-name', 'esx-07', '--send-names']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /disk scsi0:0 of VM 2099979: 16 histograms, 793 I\/Os/);
  await waitForVolumes(t, { volumeCount: 1, ops: 793, withWorkingSet: false });
  const id = (await apiGet(t.api_key, '/v1/volumes')).body.data[0].volume_id;
  const detail = (await apiGet(t.api_key, `/v1/volumes/${id}`)).body;
  assert.equal(detail.source, 'vscsistats');
  assert.equal(detail.display_name, 'vm2099979-scsi0:0');
  const opsOf = (direction) => detail.block_sizes.filter((b) => b.direction === direction).map((b) => b.ops);
  const read = h['IO lengths of Read commands'].counts;
  const write = h['IO lengths of Write commands'].counts;
  // The api lists the bins with I/Os; the file lists all 18.
  assert.deepEqual(opsOf('read'), read.filter((c) => c > 0));
  assert.deepEqual(opsOf('write'), write.filter((c) => c > 0));
  assert.deepEqual(read.map((c, i) => c + write[i]), h['IO lengths of commands'].counts);
  const w = await waitFor('the imported workload', async () => {
    const { body } = await apiGet(t.api_key, `/v1/volumes/${id}/workload`);
    return body.windows > 0 ? body : false;
  }, { timeoutMs: 60_000 });
  const families = {
    seek_distance: ['distance (in LBNs) between successive commands', 'distance (in LBNs) between successive Read commands', 'distance (in LBNs) between successive Write commands'],
    latency_us: ['latency of IOs in Microseconds (us)', 'latency of Read IOs in Microseconds (us)', 'latency of Write IOs in Microseconds (us)'],
    outstanding: ['number of outstanding IOs when a new IO is issued', 'number of outstanding Read IOs when a new Read IO is issued', 'number of outstanding Write IOs when a new Write IO is issued'],
    interarrival_us: ['latency of IO interarrival time in Microseconds (us)', 'latency of IO interarrival time for Reads in Microseconds (us)', 'latency of IO interarrival time for Writes in Microseconds (us)'],
  };
  for (const [family, [all, read, write]] of Object.entries(families)) {
    assert.deepEqual(w[family].all, h[all].counts, `${family} all`);
    assert.deepEqual(w[family].read, h[read].counts, `${family} read`);
    assert.deepEqual(w[family].write, h[write].counts, `${family} write`);
  }
  assert.deepEqual(w.seek_distance_closest.all, h['distance (in LBNs) between each command from the closest of previous 16'].counts);
  console.log(`imported vscsiStats: 16 histograms, ${Object.keys(families).length * 3 + 1 + 3} compared bucket for bucket`);
});

test("the fio job made from the CloudPhysics volume reproduces its read share within 2 points and its block-size distribution within 0.05", async () => {
  const response = await fetch(`${process.env.TIERWISE_API_URL}/v1/volumes/${volume.volume_id}/fio-job?rate=false`, { headers: { authorization: `Bearer ${tenant.api_key}` } });
  assert.equal(response.status, 200);
  const job = await response.text();
  // The job as made, run on a small file (the mix does not depend on the file size), with fio's own I/O log.
  const dir = await mkdtemp(path.join(tmpdir(), 'tierwise-fio-'));
  const iolog = path.join(dir, 'fio.iolog');
  const jobFile = path.join(dir, 'volume.fio');
  // About 20,000 I/Os of the volume's mean size, however the file loops.
  const ioBytes = Math.round((20_000 * (volume.io.read_bytes + volume.io.write_bytes)) / (volume.io.read_ops + volume.io.write_ops));
  await writeFile(jobFile, job.replace(/^size=\d+$/m, 'size=64m').replace(/^time_based=1$/m, '').replace(/^runtime=60$/m, '') + `io_size=${ioBytes}\nwrite_iolog=${iolog}\n`);
  await promisify(execFile)('fio', [`--filename=${path.join(dir, 'fio.dat')}`, '--output-format=terse', jobFile], { timeout: 300_000 });
  // fio's log: "<time> <file> read|write <offset> <length>" per I/O (fio HOWTO, "I/O replay").
  const IO_LENGTH_BOUNDS = [512, 1024, 2048, 4095, 4096, 8191, 8192, 16383, 16384, 32768, 49152, 65535, 65536, 81920, 131072, 262144, 524288];
  const label = (bytes) => String(IO_LENGTH_BOUNDS.find((b) => bytes <= b) ?? '>524288');
  const produced = new Map();
  let reads = 0;
  let total = 0;
  for (const line of (await readFile(iolog, 'utf8')).split('\n')) {
    const f = line.trim().split(/\s+/);
    const action = f.at(-3);
    if (action !== 'read' && action !== 'write') continue;
    total++;
    if (action === 'read') reads++;
    produced.set(label(Number(f.at(-1))), (produced.get(label(Number(f.at(-1)))) ?? 0) + 1);
  }
  const sourceOps = volume.io.read_ops + volume.io.write_ops;
  const source = new Map();
  for (const b of volume.block_sizes) source.set(b.bin_label, (source.get(b.bin_label) ?? 0) + b.ops);
  const labels = new Set([...source.keys(), ...produced.keys()]);
  const tvd = 0.5 * [...labels].reduce((sum, l) => sum + Math.abs((source.get(l) ?? 0) / sourceOps - (produced.get(l) ?? 0) / total), 0);
  const readShare = volume.io.read_ops / sourceOps;
  console.log(job.split('\n').filter((l) => /^(rwmixread|bssplit|percentage_random|iodepth)=/.test(l)).join('\n'));
  console.log(`fio job: ${total} I/Os, read share ${(100 * reads / total).toFixed(2)} % (source ${(100 * readShare).toFixed(2)} %), block-size TVD ${tvd.toFixed(4)}`);
  assert.ok(total >= 15_000, `${total} I/Os in fio's log`);
  assert.ok(Math.abs(reads / total - readShare) <= 0.02, `read share ${reads / total} against ${readShare}`);
  assert.ok(tvd <= 0.05, `block-size distribution ${tvd} from the volume's`);
});
