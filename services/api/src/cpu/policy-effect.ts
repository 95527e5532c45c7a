import { addCounts, emptyCounts, quantile, total } from '../series/histogram.js';
import type { LatencyCells } from '../series/histogram.js';
import { type CpuCells, CpuSums } from '../series/cpu-times.js';
import type { PolicyEffectSideDto, PolicyEffectVerdict } from './policy-effect.dto.js';

/**
 * The thresholds of the before/after reading, chosen and explained in docs/workload.md
 * "Storage-bound CPU": CHANGED, the relative change in latency or CPU below which two spans read
 * as the same; CPU_PER_IO_UP, the ratio of CPU per I/O at which a CPU rise is worth a look.
 */
const CHANGED = 0.1;
const CPU_PER_IO_UP = 2;
/** Windows of I/O each side needs (three 10 s rollup windows) before anything is said. */
const MIN_WINDOWS = 3;

/** One 10 s rollup window of the volume: front-end I/Os, latency histograms, CPU time. */
export interface EffectWindow {
  ops: number;
  latency_us: LatencyCells;
  cpu: CpuCells;
}

/** A span's figures, or null when it has too few windows of I/O. */
export function sideOf(windows: readonly EffectWindow[], windowSeconds: number): PolicyEffectSideDto | null {
  const active = windows.filter((w) => w.ops > 0);
  if (active.length < MIN_WINDOWS) return null;
  const counts = emptyCounts();
  const cpu = new CpuSums();
  let ops = 0;
  for (const w of active) {
    ops += w.ops;
    for (const bins of Object.values(w.latency_us)) for (const c of Object.values(bins)) addCounts(counts, c);
    cpu.add(w.cpu);
  }
  const seconds = active.length * windowSeconds;
  const shares = cpu.shares();
  return {
    seconds,
    iops: round(ops / seconds),
    latency_p50_us: total(counts) > 0 ? round(quantile(counts, 0.5)!) : null,
    latency_p99_us: total(counts) > 0 ? round(quantile(counts, 0.99)!) : null,
    host_busy: shares?.host_busy ?? null,
    host_iowait: shares?.host_iowait ?? null,
    consumer_cores: shares?.consumer_cores ?? null,
    cpu_us_per_io: cpu.usPerIo(ops),
  };
}

/** What a side's CPU is measured as: the consumer's cores when both sides name one, else the host's busy share. */
function cpuOf(before: PolicyEffectSideDto, after: PolicyEffectSideDto): { what: 'consumer' | 'host'; before: number; after: number } | null {
  if (before.consumer_cores !== null && after.consumer_cores !== null) return { what: 'consumer', before: before.consumer_cores, after: after.consumer_cores };
  if (before.host_busy !== null && after.host_busy !== null) return { what: 'host', before: before.host_busy, after: after.host_busy };
  return null;
}

/**
 * Reads a policy change the way the first PernixData post taught (docs/workload.md): slow storage
 * holds CPU down, so CPU that rises as latency falls is work getting done. The verdict:
 * `work_done` (latency down, CPU up, CPU per I/O less than doubled), `latency_down` (latency down,
 * CPU flat or down), `cpu_per_io_up` (each I/O costs twice the CPU or more: worth a look),
 * `latency_up`, `no_change`, or `insufficient_data` (a side without three windows of I/O, latency
 * or CPU time).
 * @returns the verdict and one sentence saying it with the figures.
 */
export function verdictOf(
  before: PolicyEffectSideDto | null,
  after: PolicyEffectSideDto | null,
  change: { version: number; appliedAt: Date },
): { verdict: PolicyEffectVerdict; statement: string } {
  const applied = `policy version ${change.version} was applied at ${change.appliedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const cpu = before && after ? cpuOf(before, after) : null;
  if (!before || !after || before.latency_p50_us === null || after.latency_p50_us === null || !cpu) {
    return { verdict: 'insufficient_data', statement: `Since ${applied}, there is not yet enough I/O with CPU time on both sides (three 10-second windows each) to compare.` };
  }
  const latencyRatio = after.latency_p50_us / Math.max(before.latency_p50_us, 1e-9);
  const cpuRatio = cpu.after / Math.max(cpu.before, 1e-9);
  const perIoRatio = before.cpu_us_per_io && after.cpu_us_per_io ? after.cpu_us_per_io / before.cpu_us_per_io : 1;
  const latency = `VM-observed median latency ${latencyRatio < 1 ? 'fell' : 'rose'} from ${us(before.latency_p50_us)} to ${us(after.latency_p50_us)}`;
  const iops = `IOPS went from ${count(before.iops)} to ${count(after.iops)}`;
  const cpuText =
    cpu.what === 'consumer'
      ? `the consumer's CPU went from ${cpu.before.toFixed(2)} to ${cpu.after.toFixed(2)} cores`
      : `the host's busy CPU went from ${pct(cpu.before)} to ${pct(cpu.after)}`;
  const perIo = before.cpu_us_per_io !== null && after.cpu_us_per_io !== null ? `CPU per I/O went from ${us(before.cpu_us_per_io)} to ${us(after.cpu_us_per_io)}` : null;
  const facts = `After ${applied}, ${latency}, ${iops} and ${cpuText}${perIo ? `; ${perIo}` : ''}.`;
  if (perIoRatio >= CPU_PER_IO_UP) {
    return { verdict: 'cpu_per_io_up', statement: `${facts} Each I/O costs more CPU than before: worth a look.` };
  }
  if (latencyRatio <= 1 - CHANGED && cpuRatio >= 1 + CHANGED) {
    return { verdict: 'work_done', statement: `${facts} The extra CPU is work getting done, not a problem: the storage no longer holds it back.` };
  }
  if (latencyRatio <= 1 - CHANGED) return { verdict: 'latency_down', statement: `${facts} Latency fell without more CPU.` };
  if (latencyRatio >= 1 + CHANGED) return { verdict: 'latency_up', statement: `${facts} Latency rose after the change.` };
  return { verdict: 'no_change', statement: `${facts} Neither latency nor CPU moved by ${CHANGED * 100} % or more.` };
}

const round = (x: number) => Math.round(x * 1000) / 1000;
const us = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(2)} ms` : `${Math.round(x)} µs`);
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const count = (x: number) => Math.round(x).toLocaleString('en-US');
