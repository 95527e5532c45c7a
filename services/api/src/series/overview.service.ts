import { Injectable } from '@nestjs/common';
import { DatabaseService } from '@tierwise/common';
import type { Principal } from '../identity/principal.js';
import { downsample } from './downsample.js';
import type { OverviewDto, OverviewHostDto, OverviewVolumeDto } from './overview.dto.js';
import type { OverviewQuery } from './overview.query.js';
import { planSeries } from './resolution.js';
import { periodOf } from './series.query.js';
import { type SeriesWindowRow, SeriesRepository, volumeInfo } from './series.repository.js';

/** Windows the period is read in at least (the resolution is the coarsest giving this many). */
const MIN_WINDOWS = 24;
const BLOCK_BYTES = 4096;

@Injectable()
export class OverviewService {
  constructor(
    private readonly database: DatabaseService,
    private readonly series: SeriesRepository,
  ) {}

  /**
   * The fleet over a period: hero numbers of the tenant scope, each volume's I/Os and merged
   * latency (one bucket over the whole period: percentiles from added histogram counts), the
   * top lists and the hosts with their volumes.
   */
  get(auth: Principal, query: OverviewQuery, now = new Date()): Promise<OverviewDto> {
    const { from, to } = periodOf(query, now);
    const { resolution, windowSeconds } = planSeries(from, to, MIN_WINDOWS, now);
    const whole = { alignedFrom: from.getTime() / 1000, bucketSeconds: Math.ceil((to.getTime() - from.getTime()) / 1000), windowSeconds };
    return this.database.withTenant(auth.tenantId, async (db) => {
      const read = (scope: string, scopeId: string | null) =>
        this.series.windows(db, auth.tenantId, { scope, scopeId, resolution, from, to });
      // One client: its queries run one after the other.
      const tenantRows = await read('tenant', auth.tenantId);
      const volumeRows = await read('volume', null);
      const infos = await volumeInfo(db, auth.tenantId);
      const info = new Map(infos.map((v) => [v.volume_id, v]));
      const hostNames = new Map(infos.map((v) => [v.host_id, v.host_name]));
      const sum = (rows: readonly SeriesWindowRow[], f: (r: SeriesWindowRow) => number) => rows.reduce((s, r) => s + f(r), 0);

      const volumes: OverviewVolumeDto[] = [];
      let writesAccelerated = 0;
      const windowsOf = groupBy(volumeRows);
      const ids = new Set([...infos.map((v) => v.volume_id), ...windowsOf.keys()]);
      for (const volumeId of ids) {
        const rows = windowsOf.get(volumeId) ?? [];
        const v = info.get(volumeId);
        const p = downsample(rows, whole, null, false).points.at(0);
        if (v?.write_back) writesAccelerated += sum(rows, (r) => r.write_ops);
        volumes.push({
          volume_id: volumeId,
          display_name: v?.display_name ?? null,
          host_id: v?.host_id ?? 'unknown',
          ios: sum(rows, (r) => r.read_ops + r.write_ops),
          iops: p ? p.read_iops + p.write_iops : 0,
          bytes_per_s: p ? p.read_bytes_per_s + p.write_bytes_per_s : 0,
          latency: p?.latency ?? null,
        });
      }

      const readOps = sum(tenantRows, (r) => r.read_ops);
      const readHits = sum(tenantRows, (r) => r.read_cache_hits);
      const readLookups = readHits + sum(tenantRows, (r) => r.read_cache_misses);
      const readHitRatio = readLookups > 0 ? readHits / readLookups : null;
      const [tenantPoint] = downsample(tenantRows, whole, null, false).points;

      const hosts = new Map<string, OverviewHostDto>();
      for (const v of volumes) {
        let h = hosts.get(v.host_id);
        if (!h) hosts.set(v.host_id, (h = { host_id: v.host_id, display_name: hostNames.get(v.host_id) ?? null, ios: 0, volumes: [] }));
        h.ios += v.ios;
        h.volumes.push(v);
      }
      for (const h of hosts.values()) h.volumes.sort((a, b) => b.ios - a.ios);
      const top = (key: (v: OverviewVolumeDto) => number) => [...volumes].filter((v) => key(v) > 0).sort((a, b) => key(b) - key(a)).slice(0, query.top);
      return {
        from: from.toISOString(),
        to: to.toISOString(),
        resolution,
        totals: {
          ios: readOps + sum(tenantRows, (r) => r.write_ops),
          bytes: sum(tenantRows, (r) => r.read_bytes + r.write_bytes),
          ios_offloaded: readHitRatio === null ? 0 : readOps * readHitRatio,
          bytes_offloaded: readHits * BLOCK_BYTES,
          writes_accelerated: writesAccelerated,
          read_hit_ratio: readHitRatio,
          latency: tenantPoint?.latency ?? null,
        },
        top_by_latency: top((v) => v.latency?.p99_us ?? 0),
        top_by_iops: top((v) => v.iops),
        hosts: [...hosts.values()].sort((a, b) => b.ios - a.ios),
      };
    });
  }
}

/** Rows (ordered by scope id) grouped by scope id. */
function groupBy(rows: readonly SeriesWindowRow[]): Map<string, SeriesWindowRow[]> {
  const groups = new Map<string, SeriesWindowRow[]>();
  for (const r of rows) {
    const g = groups.get(r.scope_id);
    if (g) g.push(r);
    else groups.set(r.scope_id, [r]);
  }
  return groups;
}
