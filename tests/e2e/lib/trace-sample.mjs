// Bounded copies of the real traces (../shared/traces) and what they hold
// that must stay on the host: volume names and block addresses. Parsed here
// independently of the agent's readers, from the formats of traces/README.md.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

const SECTOR = 512n;
const BLOCK = 4096n;

/** vscsi v1 records are 32 bytes: u32 sn, u32 len, u32 nSG, u16 cmd, u16 ver, u64 lbn (sectors), u64 ts. */
const VSCSI_V1_BYTES = 32;

/** Each replayable trace: how to read a record's volume, byte offset and length. */
const TRACES = [
  { file: 'cloudphysics_w_sample.vscsi', kind: 'vscsi' },
  { file: 'cloudphysics_w_sample.csv', kind: 'csv', header: true,
    record: (f, stem) => ({ volume: stem, offset: BigInt(f[4]) * SECTOR, length: BigInt(f[3]) }) },
  { file: 'msr_hm_0_sample1000.csv', kind: 'csv',
    record: (f) => ({ volume: `${f[1]}_${f[2]}`, offset: BigInt(f[4]), length: BigInt(f[5]) }) },
  { file: 'systor17_lun0_sample_a.csv.gz', kind: 'csv', header: true, gzip: true,
    record: (f) => ({ volume: `lun${f[3]}`, offset: BigInt(f[4]), length: BigInt(f[5]) }) },
  { file: 'systor17_lun0_sample_b.csv.gz', kind: 'csv', header: true, gzip: true,
    record: (f) => ({ volume: `lun${f[3]}`, offset: BigInt(f[4]), length: BigInt(f[5]) }) },
  { file: 'tencent_cbs_sample50k.csv.bz2', kind: 'csv', bzip2: true,
    record: (f) => ({ volume: `cbs-${f[4]}`, offset: BigInt(f[1]) * SECTOR, length: BigInt(f[2]) * SECTOR }) },
];

/** The name the agent gives a trace's volume when the records carry none (trace_reader.cpp). */
function stem(file) {
  let name = file;
  for (let changed = true; changed;) {
    changed = false;
    for (const suffix of ['.gz', '.bz2', '.vscsi', '.csv']) {
      if (name.endsWith(suffix)) {
        name = name.slice(0, -suffix.length);
        changed = true;
      }
    }
  }
  return name;
}

/**
 * Writes the first `limit` records of every replayable trace of `tracesDir` to `outDir` under the
 * same file names (same compression) and returns, per trace:
 * {file, path, records, volumes: Set<string>, addresses: [{value: BigInt, label}]}; addresses are
 * each record's byte offset and 512-byte sector, and every 4 KiB block number it touches.
 * (vscsistats_histograms_sample.csv holds histograms, not I/Os: nothing to replay.)
 */
export function sampleTraces(tracesDir, outDir, limit) {
  return TRACES.map((t) => {
    const source = readFileSync(path.join(tracesDir, t.file));
    const out = path.join(outDir, t.file);
    const records = [];
    if (t.kind === 'vscsi') {
      const bytes = source.subarray(0, limit * VSCSI_V1_BYTES);
      writeFileSync(out, bytes);
      for (let at = 0; at < bytes.length; at += VSCSI_V1_BYTES) {
        records.push({ volume: stem(t.file), offset: bytes.readBigUInt64LE(at + 16) * SECTOR, length: BigInt(bytes.readUInt32LE(at + 4)) });
      }
    } else {
      const text = (t.gzip ? gunzipSync(source) : t.bzip2 ? execFileSync('bzip2', ['-dc'], { input: source, maxBuffer: 64 << 20 }) : source).toString('latin1');
      const lines = text.split('\n').filter((l) => l.trim() !== '');
      const kept = lines.slice(0, limit + (t.header ? 1 : 0));
      const plain = Buffer.from(`${kept.join('\n')}\n`, 'latin1');
      writeFileSync(out, t.gzip ? gzipSync(plain) : t.bzip2 ? execFileSync('bzip2', ['-c'], { input: plain }) : plain);
      for (const line of kept.slice(t.header ? 1 : 0)) records.push(t.record(line.trim().split(','), stem(t.file)));
    }
    const volumes = new Set(records.map((r) => r.volume));
    const addresses = [];
    for (const r of records) {
      addresses.push({ value: r.offset, label: `${r.volume} byte offset ${r.offset}` });
      addresses.push({ value: r.offset / SECTOR, label: `${r.volume} sector ${r.offset / SECTOR}` });
      const last = r.length > 0n ? (r.offset + r.length - 1n) / BLOCK : r.offset / BLOCK;
      for (let b = r.offset / BLOCK; b <= last; b += 1n) addresses.push({ value: b, label: `${r.volume} 4 KiB block ${b}` });
    }
    return { file: t.file, path: out, records: records.length, volumes, addresses };
  });
}
