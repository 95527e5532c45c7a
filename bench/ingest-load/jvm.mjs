/**
 * Heap of a JVM from the JDK's own tools (jstat, jcmd on PATH; Java 17 HotSpot).
 *
 * jvmPid(rootPid) -> pid of the first `java` process in the tree, or null
 * Asynchronous (the JDK tools start a JVM each; the load generator must not stall meanwhile):
 * heapUsedBytes(pid) -> Promise {usedBytes, oldBytes}: young (eden + survivors) + old generation in
 *   use, and the old generation alone, from `jstat -gc` (columns S0U S1U EU OU, KiB)
 * liveHeapBytes(pid) -> Promise of the heap in use right after a full collection (`jcmd GC.run`, then
 *   jstat): the live set, the figure a leak makes grow
 * heapRange(pid) -> Promise {start, end} (BigInt addresses): the heap's reserved address range, from
 *   `jcmd GC.heap_info`: the lowest first and highest last address of its bracketed ranges (G1
 *   prints one, "[0xSTART, 0xEND)"; Parallel and Serial one per generation and space, "[0xSTART,
 *   0xCOMMITTED, 0xEND)")
 * pssInRangeBytes(pid, range) -> the proportional set size of the process's mappings inside the
 *   range (/proc/PID/smaps `Pss:` lines, kB): the heap's resident share, used or not; 0 if the
 *   process ended
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { treeUsage } from './procstat.mjs';

const run = promisify(execFile);

const KIB = 1024;

export function jvmPid(rootPid) {
  for (const pid of treeUsage(rootPid).pids) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'java') return pid;
    } catch {
      // ended while we looked
    }
  }
  return null;
}

export async function heapUsedBytes(pid) {
  const { stdout } = await run('jstat', ['-gc', String(pid)], { encoding: 'utf8' });
  const [header, values] = stdout.trim().split('\n');
  const row = Object.fromEntries(header.trim().split(/\s+/).map((name, i) => [name, Number(values.trim().split(/\s+/)[i])]));
  return {
    usedBytes: (row.S0U + row.S1U + row.EU + row.OU) * KIB,
    oldBytes: row.OU * KIB,
  };
}

export async function heapRange(pid) {
  const { stdout } = await run('jcmd', [String(pid), 'GC.heap_info'], { encoding: 'utf8' });
  const ranges = [...stdout.matchAll(/\[(0x[0-9a-f]+(?:, ?0x[0-9a-f]+)+)\)/g)].map((m) => m[1].split(/, ?/).map(BigInt));
  if (!ranges.length) throw new Error(`jcmd ${pid} GC.heap_info printed no heap address range: ${stdout.slice(0, 200)}`);
  return {
    start: ranges.map((r) => r[0]).reduce((a, b) => (b < a ? b : a)),
    end: ranges.map((r) => r.at(-1)).reduce((a, b) => (b > a ? b : a)),
  };
}

export function pssInRangeBytes(pid, range) {
  let smaps;
  try {
    smaps = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return 0;
  }
  let inside = false;
  let kib = 0;
  for (const line of smaps.split('\n')) {
    const mapping = /^([0-9a-f]+)-([0-9a-f]+) /.exec(line);
    if (mapping) {
      inside = BigInt(`0x${mapping[1]}`) >= range.start && BigInt(`0x${mapping[2]}`) <= range.end;
    } else if (inside && line.startsWith('Pss:')) {
      kib += Number(line.split(/\s+/)[1]);
    }
  }
  return kib * KIB;
}

export async function liveHeapBytes(pid) {
  await run('jcmd', [String(pid), 'GC.run'], { encoding: 'utf8' });
  return (await heapUsedBytes(pid)).usedBytes;
}
