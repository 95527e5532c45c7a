import { CONSUMER_KINDS, type ConsumerKind } from '@tierwise/proto';

/**
 * metric_rollups.cpu of one window (migration 855, microseconds): the host's CPU time per
 * `cpu.mode` and the wall time of the intervals that carried it, and per consumer kind its user
 * and system CPU time and wall time (proto/METRICS.md `system.cpu.time`,
 * `tierwise.consumer.cpu.time`). `{}` when nothing was measured.
 */
export interface CpuCells {
  host_us?: Record<string, number>;
  host_wall_us?: number;
  consumer?: Partial<Record<ConsumerKind, { user_us: number; system_us: number; wall_us: number }>>;
}

/**
 * The host modes that are work done on its CPUs (docs/workload.md "Storage-bound CPU"): `idle`,
 * `iowait` (idle with I/O outstanding) and `steal` (time the hypervisor ran something else) are not.
 */
const BUSY_MODES = ['user', 'nice', 'system', 'interrupt'] as const;

/** CPU shares of a span: the host's and the volume's consumer's. */
export interface CpuShares {
  /** Share of all the host's CPUs busy (user, nice, system, interrupt), 0..1. */
  host_busy: number;
  /** Share of all the host's CPUs idle waiting on I/O (iowait), 0..1. */
  host_iowait: number;
  /** Share stolen by the hypervisor (steal), 0..1. */
  host_steal: number;
  /** The host's logical CPUs (its CPU time over wall time). */
  host_cpus: number;
  /** CPU seconds per second of the consumer (1 = one core busy); null when no consumer was named. */
  consumer_cores: number | null;
  /** What the consumer is: the processes attached to the export, or a cgroup; null with consumer_cores. */
  consumer_kind: ConsumerKind | null;
}

/**
 * CPU time added over rollup windows. Every field is a sum, so windows merge by addition; the
 * shares are ratios of sums, never means of ratios.
 */
export class CpuSums {
  private hostUs = new Map<string, number>();
  private hostWallUs = 0;
  private readonly consumerUs = new Map<ConsumerKind, { cpu: number; wall: number }>();

  /** Adds one window's metric_rollups.cpu. */
  add(cells: CpuCells): void {
    if (cells.host_us && cells.host_wall_us) {
      for (const [mode, us] of Object.entries(cells.host_us)) this.hostUs.set(mode, (this.hostUs.get(mode) ?? 0) + us);
      this.hostWallUs += cells.host_wall_us;
    }
    for (const kind of CONSUMER_KINDS) {
      const c = cells.consumer?.[kind];
      if (!c || c.wall_us <= 0) continue;
      const sum = this.consumerUs.get(kind) ?? { cpu: 0, wall: 0 };
      sum.cpu += c.user_us + c.system_us;
      sum.wall += c.wall_us;
      this.consumerUs.set(kind, sum);
    }
  }

  /** The host's busy CPU time, µs (the BUSY_MODES added). */
  hostBusyUs(): number {
    return BUSY_MODES.reduce((sum, mode) => sum + (this.hostUs.get(mode) ?? 0), 0);
  }

  /** The consumer's CPU time and wall time, µs, of the kind reported longest; null when none was. */
  consumer(): { kind: ConsumerKind; cpuUs: number; wallUs: number } | null {
    let best: { kind: ConsumerKind; cpuUs: number; wallUs: number } | null = null;
    for (const [kind, { cpu, wall }] of this.consumerUs) {
      if (!best || wall > best.wallUs) best = { kind, cpuUs: cpu, wallUs: wall };
    }
    return best;
  }

  /** The shares over the added windows; null when no window carried the host's CPU time. */
  shares(): CpuShares | null {
    const all = [...this.hostUs.values()].reduce((a, b) => a + b, 0);
    if (all <= 0 || this.hostWallUs <= 0) return null;
    const consumer = this.consumer();
    return {
      host_busy: round(this.hostBusyUs() / all),
      host_iowait: round((this.hostUs.get('iowait') ?? 0) / all),
      host_steal: round((this.hostUs.get('steal') ?? 0) / all),
      host_cpus: round(all / this.hostWallUs, 2),
      consumer_cores: consumer ? round(consumer.cpuUs / consumer.wallUs) : null,
      consumer_kind: consumer?.kind ?? null,
    };
  }

  /**
   * CPU µs per front-end I/O: the consumer's when one was named, else the host's busy time (per
   * I/O of the volume, so on a shared host it carries other work too); null without I/O or CPU.
   */
  usPerIo(ios: number): number | null {
    if (ios <= 0) return null;
    const consumer = this.consumer();
    if (consumer) return round(consumer.cpuUs / ios, 3);
    return this.hostWallUs > 0 ? round(this.hostBusyUs() / ios, 3) : null;
  }
}

const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;
