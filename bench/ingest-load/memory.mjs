/**
 * Memory of the stack's processes under load, and whether it stays flat (the soak's and the
 * fleet benchmark's verdict).
 *
 * memoryWatch(pids) -> {sample(t_s) -> row, collectLive(into)}
 *   row: {t_s, load1, '<name> MiB' (PSS of the tree), '<name> RSS MiB', '<name> shared memory MiB'
 *   (the PSS of its shared memory), '<name> outside shared memory MiB' (the difference), and for
 *   JVMs '<name> heap MiB' (in use) and '<name> outside heap MiB' (PSS less the PSS of the heap's
 *   address range)}
 *   collectLive(into): into[name] = a JVM's heap in use right after a full collection, MiB
 * memoryVerdicts({samples, names, warmupSeconds, liveHeap: {start, end}, maxGrowthMiB})
 *   -> [{process, firstMiB, lastMiB, minMiB, maxMiB, slopeMiBPerMin, projectedMiB,
 *        liveHeapStartMiB, liveHeapEndMiB, sharedMemoryMaxMiB, grows}]
 *   measure: what the slope is of: 'PSS outside shared memory' of the tree (not the RSS sum:
 *   PostgreSQL's backends share its buffers; less its shared memory, PostgreSQL's main segment,
 *   which shared_buffers sizes at start and whose pages count as its buffers are first touched,
 *   so its PSS grows towards that bound by design), or for a JVM 'PSS outside the heap' (the PSS
 *   less the resident part of the heap's address range: a JVM commits and touches heap up to its
 *   -Xmx as its collector sees fit, likewise; its heap is judged by the live heap, the rest
 *   (metaspace, code cache, thread stacks, direct buffers, malloc) by this)
 *   sharedMemoryMaxMiB: the largest PSS of the tree's shared memory after the warm-up
 *   slopeMiBPerMin: least-squares slope of the measure over the samples after the warm-up;
 *   projectedMiB: that slope over the span; grows: the projection or the live-heap growth
 *   exceeds maxGrowthMiB
 */
import { loadavg } from 'node:os';
import { heapRange, heapUsedBytes, jvmPid, liveHeapBytes, pssInRangeBytes } from './jvm.mjs';
import { treeUsage } from './procstat.mjs';

const MIB = 1024 * 1024;

function slope(xs, ys) {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

export function memoryWatch(pids) {
  const jvms = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, jvmPid(pid)]).filter(([, p]) => p));
  const heapRanges = {};
  return {
    async sample(t_s) {
      const row = { t_s, load1: Number(loadavg()[0].toFixed(2)) };
      for (const [name, pid] of Object.entries(pids)) {
        const usage = treeUsage(pid);
        row[`${name} MiB`] = Math.round(usage.pssBytes / MIB);
        row[`${name} RSS MiB`] = Math.round(usage.rssBytes / MIB);
        row[`${name} shared memory MiB`] = Math.round(usage.shmemPssBytes / MIB);
        row[`${name} outside shared memory MiB`] = Math.round((usage.pssBytes - usage.shmemPssBytes) / MIB);
      }
      for (const [name, pid] of Object.entries(jvms)) {
        const heap = await heapUsedBytes(pid).catch(() => null);
        heapRanges[name] ??= await heapRange(pid).catch(() => undefined);
        row[`${name} heap MiB`] = heap && Math.round(heap.usedBytes / MIB);
        row[`${name} outside heap MiB`] = heapRanges[name]
          ? row[`${name} MiB`] - Math.round(pssInRangeBytes(pid, heapRanges[name]) / MIB) : null;
      }
      return row;
    },
    async collectLive(into) {
      for (const [name, pid] of Object.entries(jvms)) into[name] = Math.round((await liveHeapBytes(pid)) / MIB);
    },
  };
}

export function memoryVerdicts({ samples, names, warmupSeconds, liveHeap, maxGrowthMiB }) {
  const steady = samples.filter((s) => s.t_s >= warmupSeconds);
  const minutes = (steady.at(-1).t_s - steady[0].t_s) / 60;
  return names.map((name) => {
    const jvm = steady.every((s) => typeof s[`${name} outside heap MiB`] === 'number');
    const key = jvm ? `${name} outside heap MiB` : `${name} outside shared memory MiB`;
    const perMin = slope(steady.map((s) => s.t_s / 60), steady.map((s) => s[key]));
    const v = {
      process: name,
      measure: jvm ? 'PSS outside the heap' : 'PSS outside shared memory',
      firstMiB: steady[0][key],
      lastMiB: steady.at(-1)[key],
      minMiB: Math.min(...steady.map((s) => s[key])),
      maxMiB: Math.max(...steady.map((s) => s[key])),
      slopeMiBPerMin: Number(perMin.toFixed(2)),
      projectedMiB: Number((perMin * minutes).toFixed(1)),
      liveHeapStartMiB: liveHeap.start[name] ?? null,
      liveHeapEndMiB: liveHeap.end[name] ?? null,
      sharedMemoryMaxMiB: Math.max(...steady.map((s) => s[`${name} shared memory MiB`] ?? 0)),
    };
    const heapGrowth = v.liveHeapStartMiB === null ? 0 : v.liveHeapEndMiB - v.liveHeapStartMiB;
    v.grows = v.projectedMiB > maxGrowthMiB || heapGrowth > maxGrowthMiB;
    return v;
  });
}
