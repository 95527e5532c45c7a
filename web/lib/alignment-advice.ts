import { formatPercent } from "./format";
import type { Alignment } from "./workload-schemas";

/** Bytes past a 4 KiB boundary of a partition starting at sector 63 (older installers' MBR layout): 63 × 512 mod 4096. */
const SECTOR_63_OFFSET_BYTES = 3584;

/**
 * What a volume's block alignment means for its tier, in one sentence (docs/workload.md "Block
 * alignment"): aligned; realignment advised by the dominant offset (bytes) with the extra tier
 * work it removes (percent of 4 KiB blocks); misaligned at no one offset, which moving the
 * partition would not fix; or one offset whose extra work is too small to be worth it.
 */
export function alignmentAdvice(a: Alignment): string {
  if (a.misaligned_share === 0) return "Every I/O starts on a 4 KiB boundary: the volume is aligned.";
  const offset = a.dominant_offset_bytes;
  if (offset === null) {
    return "The misaligned I/Os start at no one offset: they are the application's own small I/Os at any sector, which moving the partition would not fix.";
  }
  const sector63 = offset === SECTOR_63_OFFSET_BYTES;
  if (a.realignment_advised) {
    const why = sector63 ? `: ${offset} bytes is a partition starting at sector 63, as older installers created it` : "";
    return `Realigning the partition by ${offset} bytes would remove ${formatPercent(a.extra_block_share)} extra tier work${why}.`;
  }
  const at = `Most misaligned I/Os start ${offset} bytes into their 4 KiB block${sector63 ? " (a partition starting at sector 63)" : ""}`;
  if (a.extra_block_share === null) return `${at}; the tier's extra work from it was not reported.`;
  return `${at}, but they add only ${formatPercent(a.extra_block_share)} extra tier work: realigning is not worth it.`;
}
