/**
 * CPU time and resident memory of a process and all its descendants, from /proc (Linux).
 * The local stack starts services through `npm run`, so the server is a child of the pid
 * in .local/<profile>/run/<name>.pid: the whole tree is measured.
 *
 * treeUsage(rootPid) -> {cpuSeconds, rssBytes, pssBytes, shmemPssBytes, pids}
 *   cpuSeconds: user + system time of every live process of the tree and of the children
 *               they have reaped (proc(5) utime+stime+cutime+cstime in clock ticks /
 *               sysconf(_SC_CLK_TCK) = 100 on Linux: PostgreSQL's ended backends count), seconds
 *   rssBytes:   sum of their resident set sizes (proc(5) statm resident * page size 4096), bytes
 *   pssBytes:   sum of their proportional set sizes (proc(5) smaps_rollup Pss: a page shared by
 *               n processes counts 1/n to each), bytes; the tree's real footprint where its
 *               processes share memory (PostgreSQL's shared buffers), which the RSS sum counts
 *               once per process that touched it
 *   shmemPssBytes: the part of pssBytes in shared memory (smaps_rollup Pss_Shmem: PostgreSQL's
 *               main segment, sized at start by shared_buffers and touched as its buffers fill),
 *               bytes
 *
 * threadCpuSeconds(pid, tid) -> user + system time of one thread (/proc/<pid>/task/<tid>/stat),
 *   seconds, or null when it ended
 */
import { readdirSync, readFileSync } from 'node:fs';

const CLOCK_TICKS_PER_SECOND = 100;
const PAGE_BYTES = 4096;

/** proc(5) stat fields after the command name (in parentheses, which may hold spaces): field 3 on. */
function statFields(file) {
  const text = readFileSync(file, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

export function threadCpuSeconds(pid, tid) {
  try {
    const fields = statFields(`/proc/${pid}/task/${tid}/stat`);
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

function stat(pid) {
  try {
    const fields = statFields(`/proc/${pid}/stat`);
    const resident = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return { ppid: Number(fields[1]), cpuTicks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]), rssBytes: resident * PAGE_BYTES };
  } catch {
    return null; // the process ended while we looked
  }
}

/** Pss and Pss_Shmem of one process from /proc/<pid>/smaps_rollup, bytes (0 when it ended or is unreadable). */
function pss(pid) {
  try {
    const lines = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').split('\n');
    const kib = (field) => Number(lines.find((l) => l.startsWith(`${field}:`))?.split(/\s+/)[1] ?? 0);
    return { pss: kib('Pss') * 1024, shmem: kib('Pss_Shmem') * 1024 };
  } catch {
    return { pss: 0, shmem: 0 };
  }
}

export function treeUsage(rootPid) {
  const all = new Map();
  for (const entry of readdirSync('/proc')) {
    if (/^\d+$/.test(entry)) {
      const s = stat(entry);
      if (s) all.set(Number(entry), s);
    }
  }
  const tree = new Set([rootPid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, s] of all) {
      if (!tree.has(pid) && tree.has(s.ppid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  let cpuTicks = 0;
  let rssBytes = 0;
  let pssBytes = 0;
  let shmemPssBytes = 0;
  for (const pid of tree) {
    const s = all.get(pid);
    if (s) {
      cpuTicks += s.cpuTicks;
      rssBytes += s.rssBytes;
      const p = pss(pid);
      pssBytes += p.pss;
      shmemPssBytes += p.shmem;
    }
  }
  return { cpuSeconds: cpuTicks / CLOCK_TICKS_PER_SECOND, rssBytes, pssBytes, shmemPssBytes, pids: [...tree] };
}
