import type { AlignmentDto, WorkloadHistogramDto } from './workload.dto.js';

/** Bytes per sector: tierwise.io.alignment counts 512-byte sectors (proto/METRICS.md). */
const SECTOR_BYTES = 512;
/**
 * Extra tier work (4 KiB blocks spanned over those an aligned layout spans, minus 1) from which
 * realignment is advised: a product threshold, docs/workload.md "Block alignment".
 */
export const ADVISE_EXTRA_BLOCK_SHARE = 0.05;
/** Share of the misaligned commands one offset must hold to be the partition's offset. */
export const DOMINANT_OFFSET_SHARE = 0.5;

/**
 * The alignment sums of the period: bytes of misaligned commands, and 4 KiB blocks spanned as
 * issued and if aligned (metric_rollups.workload `alignment_work`, read and write added).
 */
export interface AlignmentWork {
  misalignedBytes: number;
  blocksIssued: number;
  blocksAligned: number;
}

/**
 * What a volume's block alignment means for its cache tier (docs/workload.md "Block alignment").
 *
 * @param startSector `tierwise.io.alignment` merged over the period (bounds 0..6 sectors).
 * @param work the period's alignment sums; null when no window carried them.
 * @param bytes bytes read and written in the period (the rollups' front-end bytes).
 * @returns null when no command was counted.
 */
export function alignmentOf(startSector: WorkloadHistogramDto, work: AlignmentWork | null, bytes: number): AlignmentDto | null {
  const counts = startSector.all;
  const commands = counts?.reduce((a, b) => a + b, 0) ?? 0;
  if (!counts || commands === 0) return null;
  const misaligned = commands - counts[0];
  const top = counts.slice(1).reduce((best, c, i) => (c > counts[best] ? i + 1 : best), 1);
  const dominant = misaligned > 0 && counts[top] >= DOMINANT_OFFSET_SHARE * misaligned ? top * SECTOR_BYTES : null;
  const extra = work && work.blocksAligned > 0 ? work.blocksIssued / work.blocksAligned - 1 : null;
  return {
    start_sector: startSector,
    commands,
    misaligned_share: misaligned / commands,
    misaligned_bytes_share: work && bytes > 0 ? Math.min(1, work.misalignedBytes / bytes) : null,
    extra_block_share: extra,
    dominant_offset_bytes: dominant,
    realignment_advised: dominant !== null && extra !== null && extra >= ADVISE_EXTRA_BLOCK_SHARE,
  };
}
