/**
 * Heap of a JVM from the JDK's own tools (jstat, jcmd on PATH; Java 17 HotSpot).
 *
 * jvmPid(rootPid) -> pid of the first `java` process in the tree, or null
 * Asynchronous (the JDK tools start a JVM each; the load generator must not stall meanwhile):
 * heapUsedBytes(pid) -> Promise {usedBytes, oldBytes, committedBytes}: young (eden + survivors) + old
 *   generation in use, the old generation alone, and the heap committed (the memory the JVM took
 *   for its heap, used or not), from `jstat -gc` (columns S0U S1U EU OU, S0C S1C EC OC, KiB)
 * liveHeapBytes(pid) -> Promise of the heap in use right after a full collection (`jcmd GC.run`, then
 *   jstat): the live set, the figure a leak makes grow
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
    committedBytes: (row.S0C + row.S1C + row.EC + row.OC) * KIB,
  };
}

export async function liveHeapBytes(pid) {
  await run('jcmd', [String(pid), 'GC.run'], { encoding: 'utf8' });
  return (await heapUsedBytes(pid)).usedBytes;
}
