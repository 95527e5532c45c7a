// A reference implementation of the vscsiStats workload histograms (proto/METRICS.md: seek
// distance from the previous command and from the closest of the previous 16, interarrival) and
// of the block alignment histogram,
// written plainly from the contract, independent of the agent's code: the end-to-end tests compare
// what the api answers for a replayed trace with what this computes from the trace file.
import { readFileSync } from 'node:fs';

export const SEEK_BOUNDS = [-500000, -100000, -50000, -10000, -5000, -1000, -500, -128, -64, -32, -16, -8, -6, -4, -2, -1, 0,
  1, 2, 4, 6, 8, 16, 32, 64, 128, 500, 1000, 5000, 10000, 50000, 100000, 500000];
export const INTERARRIVAL_BOUNDS_US = [1, 10, 100, 500, 1000, 5000, 15000, 30000, 50000, 100000];

/** The bucket of `value`: the first whose inclusive upper bound is >= value, else the last. */
function bucket(bounds, value) {
  const i = bounds.findIndex((b) => value <= b);
  return i === -1 ? bounds.length : i;
}

/**
 * The commands of a version-1 vscsi trace (32-byte little-endian records: sn, len bytes, nSG,
 * cmd, ver, lbn in 512-byte sectors, ts in µs; ../shared/traces/README.md), in file order.
 */
export function readVscsi(file) {
  const data = readFileSync(file);
  const commands = [];
  for (let at = 0; at + 32 <= data.length; at += 32) {
    const cmd = data.readUInt16LE(at + 12);
    commands.push({ write: cmd === 0x2a, sectors: Math.ceil(data.readUInt32LE(at + 4) / 512), lbn: Number(data.readBigUInt64LE(at + 16)), ts: Number(data.readBigUInt64LE(at + 24)) });
  }
  return commands;
}

/**
 * The workload histograms of `commands`: seek distance (all, read, write), closest of the
 * previous 16 (all; between d and -d, the forward d), interarrival (all,
 * read, write). The first command (of a direction) has no distance and no interarrival.
 */
export function workloadOf(commands) {
  const zeros = (n) => new Array(n).fill(0);
  const seek = { all: zeros(34), read: zeros(34), write: zeros(34) };
  const closest = zeros(34);
  const interarrival = { all: zeros(11), read: zeros(11), write: zeros(11) };
  const last = { all: null, read: null, write: null };
  const previous = []; // the last sectors of up to 16 previous commands
  for (const c of commands) {
    const direction = c.write ? 'write' : 'read';
    for (const key of ['all', direction]) {
      const p = last[key];
      if (p) {
        seek[key][bucket(SEEK_BOUNDS, c.lbn - (p.lbn + p.sectors - 1))]++;
        interarrival[key][bucket(INTERARRIVAL_BOUNDS_US, c.ts - p.ts)]++;
      }
      last[key] = c;
    }
    if (previous.length > 0) {
      let best = null;
      for (const end of previous) {
        const d = c.lbn - end;
        if (best === null || Math.abs(d) < Math.abs(best) || (Math.abs(d) === Math.abs(best) && d > best)) best = d;
      }
      closest[bucket(SEEK_BOUNDS, best)]++;
    }
    previous.push(c.lbn + c.sectors - 1);
    if (previous.length > 16) previous.shift();
  }
  return { seek, closest, interarrival };
}

/**
 * tierwise.io.alignment of `commands` (proto/METRICS.md "Block alignment"): commands by the
 * sector of their 4 KiB block they start at (lbn mod 8), all, read and write.
 */
export function alignmentOf(commands) {
  const counts = { all: new Array(8).fill(0), read: new Array(8).fill(0), write: new Array(8).fill(0) };
  for (const c of commands) {
    counts.all[c.lbn % 8]++;
    counts[c.write ? 'write' : 'read'][c.lbn % 8]++;
  }
  return counts;
}
