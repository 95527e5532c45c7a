/**
 * Memory of the stack's processes under load, and whether it stays flat (the soak's and the
 * fleet benchmark's verdict).
 *
 * memoryWatch(pids) -> {sample(t_s) -> row, collectLive(into)}
 *   row: {t_s, load1, '<name> MiB' (PSS of the tree), '<name> RSS MiB', '<name> heap MiB' (JVMs)}
 *   collectLive(into): into[name] = a JVM's heap in use right after a full collection, MiB
 * memoryVerdicts({samples, names, warmupSeconds, liveHeap: {start, end}, maxGrowthMiB})
 *   -> [{process, firstMiB, lastMiB, minMiB, maxMiB, slopeMiBPerMin, projectedMiB,
 *        liveHeapStartMiB, liveHeapEndMiB, grows}]
 *   slopeMiBPerMin: least-squares slope of the tree's PSS over the samples after the warm-up
 *   (PSS, not the RSS sum: PostgreSQL's backends share its buffers); projectedMiB: that slope
 *   over the span; grows: the projection or the live-heap growth exceeds maxGrowthMiB
 */
import { loadavg } from 'node:os';
import { heapUsedBytes, jvmPid, liveHeapBytes } from './jvm.mjs';
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
  return {
    async sample(t_s) {
      const row = { t_s, load1: Number(loadavg()[0].toFixed(2)) };
      for (const [name, pid] of Object.entries(pids)) {
        const usage = treeUsage(pid);
        row[`${name} MiB`] = Math.round(usage.pssBytes / MIB);
        row[`${name} RSS MiB`] = Math.round(usage.rssBytes / MIB);
      }
      for (const [name, pid] of Object.entries(jvms)) {
        row[`${name} heap MiB`] = await heapUsedBytes(pid).then((h) => Math.round(h.usedBytes / MIB), () => null);
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
    const key = `${name} MiB`;
    const perMin = slope(steady.map((s) => s.t_s / 60), steady.map((s) => s[key]));
    const v = {
      process: name,
      firstMiB: steady[0][key],
      lastMiB: steady.at(-1)[key],
      minMiB: Math.min(...steady.map((s) => s[key])),
      maxMiB: Math.max(...steady.map((s) => s[key])),
      slopeMiBPerMin: Number(perMin.toFixed(2)),
      projectedMiB: Number((perMin * minutes).toFixed(1)),
      liveHeapStartMiB: liveHeap.start[name] ?? null,
      liveHeapEndMiB: liveHeap.end[name] ?? null,
    };
    const heapGrowth = v.liveHeapStartMiB === null ? 0 : v.liveHeapEndMiB - v.liveHeapStartMiB;
    v.grows = v.projectedMiB > maxGrowthMiB || heapGrowth > maxGrowthMiB;
    return v;
  });
}
