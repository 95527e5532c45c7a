import { Injectable } from '@nestjs/common';
import { ApiError, DatabaseService, ErrorCode } from '@tierwise/common';
import { ALIGNMENT_BOUNDS_SECTORS, INTERARRIVAL_BOUNDS_US, OUTSTANDING_IOS_BOUNDS, SEEK_DISTANCE_BOUNDS_SECTORS, VSCSI_LATENCY_BOUNDS_US } from '@tierwise/proto';
import type { Principal } from '../identity/principal.js';
import { planSeries } from '../series/resolution.js';
import { periodOf } from '../series/series.query.js';
import { VolumeRepository } from '../volumes/volume.repository.js';
import { type AlignmentWork, alignmentOf } from './alignment.js';
import { fioJobOf } from './fio-job.js';
import type { FioJobQuery, RandomnessDto, WorkloadDto, WorkloadHistogramDto, WorkloadQuery } from './workload.dto.js';
import { type WorkloadCells, WorkloadRepository } from './workload.repository.js';

/** Windows the period is read in at least (the resolution is the coarsest giving this many). */
const MIN_WINDOWS = 24;
const DIRECTIONS = ['all', 'read', 'write'] as const;

/** The families of metric_rollups.workload and their bounds (proto/METRICS.md). */
const FAMILIES = {
  seek_distance: SEEK_DISTANCE_BOUNDS_SECTORS,
  seek_distance_closest: SEEK_DISTANCE_BOUNDS_SECTORS,
  outstanding: OUTSTANDING_IOS_BOUNDS,
  interarrival_us: INTERARRIVAL_BOUNDS_US,
  alignment: ALIGNMENT_BOUNDS_SECTORS,
  latency_us: VSCSI_LATENCY_BOUNDS_US,
} as const;
type Family = keyof typeof FAMILIES;

/** The family's counts per direction added over the windows; a direction no window had stays null. */
function merge(windows: WorkloadCells[], family: Family): WorkloadHistogramDto {
  const bounds = FAMILIES[family];
  const merged: WorkloadHistogramDto = { bounds: [...bounds], all: null, read: null, write: null };
  for (const cells of windows) {
    for (const direction of DIRECTIONS) {
      const counts = cells[family]?.[direction];
      if (counts?.length !== bounds.length + 1) continue;
      const into = (merged[direction] ??= new Array<number>(bounds.length + 1).fill(0));
      counts.forEach((c, i) => (into[i] += c));
    }
  }
  return merged;
}

/** The alignment sums of read and write added over the windows; null when no window had them. */
function alignmentWork(windows: WorkloadCells[]): AlignmentWork | null {
  let work: AlignmentWork | null = null;
  for (const cells of windows) {
    for (const counters of [cells.alignment_work?.read, cells.alignment_work?.write]) {
      if (counters?.length !== 3) continue;
      work ??= { misalignedBytes: 0, blocksIssued: 0, blocksAligned: 0 };
      work.misalignedBytes += counters[0];
      work.blocksIssued += counters[1];
      work.blocksAligned += counters[2];
    }
  }
  return work;
}

/**
 * The randomness of a volume's I/O from the seek distances over all commands: the share at
 * distance 1 (sequential: vscsiStats counts from the previous command's last sector) and within
 * (-128, 128] sectors. Null without commands.
 */
export function randomnessOf(seek: number[] | null): RandomnessDto | null {
  const commands = seek?.reduce((a, b) => a + b, 0) ?? 0;
  if (!seek || commands === 0) return null;
  const bounds = SEEK_DISTANCE_BOUNDS_SECTORS;
  const near = seek.slice(bounds.indexOf(-128) + 1, bounds.indexOf(128) + 1).reduce((a, b) => a + b, 0);
  return { commands, sequential_share: seek[bounds.indexOf(1)] / commands, within_128_sectors_share: near / commands };
}

@Injectable()
export class WorkloadService {
  constructor(
    private readonly database: DatabaseService,
    private readonly workload: WorkloadRepository,
    private readonly volumes: VolumeRepository,
  ) {}

  /**
   * The volume's vscsiStats histograms over the period, merged from its rollup windows.
   * @throws ApiError not_found when the tenant has no such volume.
   */
  get(auth: Principal, volumeId: string, query: WorkloadQuery, now = new Date()): Promise<WorkloadDto> {
    const { from, to } = periodOf(query, now);
    const { resolution } = planSeries(from, to, MIN_WINDOWS, now);
    return this.database.withTenant(auth.tenantId, async (db) => {
      if (!(await this.workload.exists(db, auth.tenantId, volumeId))) {
        throw new ApiError(ErrorCode.NotFound, `volume ${volumeId} not found`);
      }
      const rows = await this.workload.windows(db, auth.tenantId, { volumeId, resolution, from, to });
      const windows = rows.map((r) => r.cells);
      const seek = merge(windows, 'seek_distance');
      const bytes = rows.reduce((sum, r) => sum + r.bytes, 0);
      return {
        volume_id: volumeId,
        from: from.toISOString(),
        to: to.toISOString(),
        resolution,
        windows: windows.length,
        seek_distance: seek,
        seek_distance_closest: merge(windows, 'seek_distance_closest'),
        outstanding: merge(windows, 'outstanding'),
        interarrival_us: merge(windows, 'interarrival_us'),
        latency_us: merge(windows, 'latency_us'),
        randomness: randomnessOf(seek.all),
        alignment: alignmentOf(merge(windows, 'alignment'), alignmentWork(windows), bytes),
      };
    });
  }

  /**
   * An fio job file from the volume's measured mix over the period (docs/workload.md "A benchmark
   * from the real workload"): read share, I/O rate, seek distances and outstanding I/Os of the
   * period's rollups, the volume's block-size distribution and working set.
   * @throws ApiError not_found when the tenant has no such volume.
   */
  fioJob(auth: Principal, volumeId: string, query: FioJobQuery, now = new Date()): Promise<{ job: string; from: Date; to: Date }> {
    const { from, to } = periodOf(query, now);
    const { resolution, windowSeconds } = planSeries(from, to, MIN_WINDOWS, now);
    return this.database.withTenant(auth.tenantId, async (db) => {
      const volume = await this.volumes.get(db, auth.tenantId, volumeId);
      if (!volume) throw new ApiError(ErrorCode.NotFound, `volume ${volumeId} not found`);
      const rows = await this.workload.windows(db, auth.tenantId, { volumeId, resolution, from, to });
      const windows = rows.map((r) => r.cells);
      const seek = merge(windows, 'seek_distance');
      const job = fioJobOf({
        volumeId,
        displayName: volume.display_name,
        from,
        to,
        readOps: rows.reduce((sum, r) => sum + r.readOps, 0),
        writeOps: rows.reduce((sum, r) => sum + r.writeOps, 0),
        seconds: rows.length * windowSeconds,
        blockSizes: await this.volumes.blockSizes(db, auth.tenantId, volumeId),
        seekRead: seek.read,
        seekWrite: seek.write,
        outstanding: merge(windows, 'outstanding').all,
        wssBytes: volume.wss_bytes,
        rate: query.rate,
      });
      return { job, from, to };
    });
  }
}
