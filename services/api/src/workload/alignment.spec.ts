import { describe, expect, it } from 'vitest';
import { alignmentOf } from './alignment.js';

const histogram = (all: number[]) => ({ bounds: [0, 1, 2, 3, 4, 5, 6], all, read: null, write: null });

describe('alignmentOf', () => {
  it('advises realignment for a dominant offset that costs at least 5 % more blocks', () => {
    // A partition at sector 63: 7 sectors (3584 bytes) into the block.
    const a = alignmentOf(histogram([10, 0, 0, 0, 0, 0, 0, 90]), { misalignedBytes: 900, blocksIssued: 110, blocksAligned: 100 }, 1000);
    expect(a).toMatchObject({ misaligned_share: 0.9, misaligned_bytes_share: 0.9, dominant_offset_bytes: 3584, realignment_advised: true });
    expect(a?.extra_block_share).toBeCloseTo(0.1);
  });

  it('does not advise it when no offset dominates (the application issues small I/Os anywhere)', () => {
    const a = alignmentOf(histogram([20, 12, 12, 12, 12, 12, 10, 10]), { misalignedBytes: 500, blocksIssued: 130, blocksAligned: 100 }, 1000);
    expect(a).toMatchObject({ dominant_offset_bytes: null, realignment_advised: false });
  });

  it('does not advise it when the extra work is small, and says nothing without commands', () => {
    const a = alignmentOf(histogram([90, 10, 0, 0, 0, 0, 0, 0]), { misalignedBytes: 10, blocksIssued: 102, blocksAligned: 100 }, 1000);
    expect(a).toMatchObject({ dominant_offset_bytes: 512, realignment_advised: false });
    expect(alignmentOf(histogram([0, 0, 0, 0, 0, 0, 0, 0]), null, 0)).toBeNull();
    expect(alignmentOf({ ...histogram([]), all: null }, null, 0)).toBeNull();
  });

  it('leaves the byte share and the extra work null without their sums', () => {
    expect(alignmentOf(histogram([1, 1, 0, 0, 0, 0, 0, 0]), null, 4096)).toMatchObject({ misaligned_bytes_share: null, extra_block_share: null, realignment_advised: false });
  });
});
