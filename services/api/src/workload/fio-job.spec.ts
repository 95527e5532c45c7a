import { describe, expect, it } from 'vitest';
import { bssplitOf, fioJobOf, medianDepth, percentages, randomPercent, sizeOf } from './fio-job.js';

const SEEK = 34;
const one = (n: number, at: number, count: number) => Array.from({ length: n }, (_, i) => (i === at ? count : 0));

describe('the fio job of a volume', () => {
  it('splits 100 % by largest remainder', () => {
    expect(percentages([1, 1, 1])).toEqual([34, 33, 33]);
    expect(percentages([0, 5])).toEqual([0, 100]);
    expect(percentages([0, 0])).toEqual([0, 0]);
  });

  it('takes each bin at its mean size in whole sectors, and adds bins of one size', () => {
    expect(
      bssplitOf([
        { direction: 'read', bin_upper_bytes: 4096, ops: 60, bytes: 60 * 4096 },
        { direction: 'read', bin_upper_bytes: 65536, ops: 40, bytes: 40 * 65536 },
      ]),
    ).toBe('4096/60:65536/40');
    // A 2049..4095 bin whose I/Os average 3000 bytes: 3072 (6 sectors); averaging 4000: 3584, still in the bin.
    expect(bssplitOf([{ direction: 'write', bin_upper_bytes: 4095, ops: 1, bytes: 3000 }])).toBe('3072/100');
    expect(sizeOf({ direction: 'write', bin_upper_bytes: 4095, ops: 1, bytes: 4000 })).toBe(3584);
    expect(sizeOf({ direction: 'write', bin_upper_bytes: 8192, ops: 1, bytes: 8192 })).toBe(8192);
    expect(sizeOf({ direction: 'read', bin_upper_bytes: 512, ops: 2, bytes: 2 })).toBe(512);
    expect(sizeOf({ direction: 'read', bin_upper_bytes: null, ops: 1, bytes: 1 })).toBe(524800);
    expect(bssplitOf([])).toBe('4k/100');
  });

  it('reads the random share from the seek distances and the depth at the median command', () => {
    expect(randomPercent(one(SEEK, 17, 30).map((c, i) => (i === 0 ? 70 : c)))).toBe(70);
    expect(randomPercent(null)).toBe(100);
    expect(medianDepth([10, 0, 0, 0, 30, 0, 0, 0, 0, 0, 0, 0, 0])).toBe(8);
    expect(medianDepth(one(13, 12, 5))).toBe(128);
    expect(medianDepth(null)).toBe(1);
  });

  it('writes the job, paced or not, with a hostile name kept out of the options', () => {
    const input = {
      volumeId: '00c0ffee00c0ffee',
      displayName: 'x\nfilename=/dev/sda',
      from: new Date('2026-11-27T00:00:00Z'),
      to: new Date('2026-11-28T00:00:00Z'),
      readOps: 3000,
      writeOps: 1000,
      seconds: 100,
      blockSizes: [
        { direction: 'read' as const, bin_upper_bytes: 8192, ops: 3000, bytes: 3000 * 8192 },
        { direction: 'write' as const, bin_upper_bytes: 4096, ops: 1000, bytes: 1000 * 4096 },
      ],
      seekRead: one(SEEK, 17, 10),
      seekWrite: null,
      outstanding: one(13, 2, 9),
      wssBytes: 300 * 1024 ** 2 + 5,
      rate: true,
    };
    const job = fioJobOf(input);
    expect(job).toContain('rw=randrw\nrwmixread=75\nbssplit=8192/100,4096/100\npercentage_random=0,100\niodepth=4\nrate_iops=30,10\n');
    expect(job).toContain(`norandommap=1\nsize=${301 * 1024 ** 2}\n`);
    expect(job).toContain('[x_filename__dev_sda]');
    expect(job.split('\n').filter((l) => l.startsWith('filename='))).toEqual([]);
    expect(fioJobOf({ ...input, rate: false })).not.toContain('rate_iops');
  });
});
