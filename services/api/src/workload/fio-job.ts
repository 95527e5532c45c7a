import { IO_LENGTH_BOUNDS_BYTES, OUTSTANDING_IOS_BOUNDS, SEEK_DISTANCE_BOUNDS_SECTORS } from '@tierwise/proto';

/** Bytes per sector: fio's block sizes with direct=1 are whole sectors. */
const SECTOR_BYTES = 512;
/** When no working set is known yet, the job's file size (bytes). */
const DEFAULT_FILE_BYTES = 1024 ** 3;
/** Smallest file the job works on (bytes): a working set smaller than this still gets it. */
const MIN_FILE_BYTES = 64 * 1024 ** 2;
const MIB = 1024 ** 2;

/** One ioLength bin of one direction: its upper bound (null: above 524288), I/Os and bytes (volume_block_sizes). */
export interface SizeBin {
  direction: 'read' | 'write';
  bin_upper_bytes: number | null;
  ops: number;
  bytes: number;
}

/**
 * The I/O size fio issues for a bin: its mean (bytes / I/Os) in whole sectors, kept inside the bin
 * (a (2048, 4095] bin averaging 4000 bytes issues 3584, not 4096), so fio's I/Os fall in the bin
 * they stand for.
 */
export function sizeOf(bin: SizeBin): number {
  const i = bin.bin_upper_bytes === null ? IO_LENGTH_BOUNDS_BYTES.length : IO_LENGTH_BOUNDS_BYTES.indexOf(bin.bin_upper_bytes);
  const lower = i > 0 ? IO_LENGTH_BOUNDS_BYTES[i - 1] : 0;
  const smallest = (Math.floor(lower / SECTOR_BYTES) + 1) * SECTOR_BYTES;
  const largest = bin.bin_upper_bytes === null ? Infinity : Math.floor(bin.bin_upper_bytes / SECTOR_BYTES) * SECTOR_BYTES;
  return Math.min(largest, Math.max(smallest, Math.round(bin.bytes / bin.ops / SECTOR_BYTES) * SECTOR_BYTES));
}

/** What a volume's fio job is made from (docs/workload.md "A benchmark from the real workload"). */
export interface FioJobInput {
  volumeId: string;
  displayName: string | null;
  from: Date;
  to: Date;
  /** Front-end I/Os and the seconds they were counted over (for the rate). */
  readOps: number;
  writeOps: number;
  seconds: number;
  /** The volume's block-size distribution by ioLength bin, bytes per bin for each bin's mean size. */
  blockSizes: SizeBin[];
  /** Seek-distance bucket counts over reads and over writes (vscsiStats bounds), null when none. */
  seekRead: number[] | null;
  seekWrite: number[] | null;
  /** Outstanding-I/O bucket counts over all commands (vscsiStats bounds), null when none. */
  outstanding: number[] | null;
  /** Working set size, bytes; null before the working-set job wrote one. */
  wssBytes: number | null;
  /** Whether to pace the job at the measured IOPS (rate_iops). */
  rate: boolean;
}

/** Integer percentages of `weights` that add up to 100 (largest remainder), zeros dropped by the caller. */
export function percentages(weights: number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  if (total <= 0) return weights.map(() => 0);
  const exact = weights.map((w) => (100 * w) / total);
  const out = exact.map(Math.floor);
  const order = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((a, b) => b[0] - a[0]);
  for (let k = 0, left = 100 - out.reduce((a, b) => a + b, 0); k < left; k++) out[order[k][1]]++;
  return out;
}

/**
 * fio's `bssplit` for one direction: each ioLength bin at its size ({@link sizeOf}), bins of the
 * same size added, as integer percentages of the direction's I/Os; `4k/100` without I/Os.
 */
export function bssplitOf(bins: SizeBin[]): string {
  const bySize = new Map<number, number>();
  for (const b of bins) {
    if (b.ops <= 0) continue;
    const size = sizeOf(b);
    bySize.set(size, (bySize.get(size) ?? 0) + b.ops);
  }
  if (bySize.size === 0) return '4k/100';
  const sizes = [...bySize.keys()].sort((a, b) => a - b);
  const shares = percentages(sizes.map((s) => bySize.get(s) ?? 0));
  return sizes
    .map((s, i) => [s, shares[i]] as const)
    .filter(([, p]) => p > 0)
    .map(([s, p]) => `${s}/${p}`)
    .join(':');
}

/** Share of commands that did not start where the previous one ended (seek distance other than 1), in percent; 100 without data. */
export function randomPercent(seek: number[] | null): number {
  const total = seek?.reduce((a, b) => a + b, 0) ?? 0;
  if (!seek || total === 0) return 100;
  return Math.round(100 * (1 - seek[SEEK_DISTANCE_BOUNDS_SECTORS.indexOf(1)] / total));
}

/** The I/Os in flight at the median command: the upper bound of the outstanding-I/O bucket holding it (1 without data; 128 above 64). */
export function medianDepth(outstanding: number[] | null): number {
  const total = outstanding?.reduce((a, b) => a + b, 0) ?? 0;
  if (!outstanding || total === 0) return 1;
  let seen = 0;
  for (let i = 0; i < outstanding.length; i++) {
    seen += outstanding[i];
    if (seen * 2 >= total) return i < OUTSTANDING_IOS_BOUNDS.length ? OUTSTANDING_IOS_BOUNDS[i] : 128;
  }
  return 1;
}

/**
 * An fio job file that replays a volume's measured mix (the "synthetic tests must mimic the real
 * mix" lesson): `rwmixread` from its read share, `bssplit` per direction from its block-size
 * distribution, `percentage_random` per direction from its seek distances, `iodepth` from the
 * outstanding I/Os at the median command, the working set as the file size, and (with `rate`) the
 * measured IOPS as `rate_iops`. Options per fio's documentation (fio.readthedocs.io, "Job file
 * parameters"); the figures it was made from are in its comments.
 */
export function fioJobOf(input: FioJobInput): string {
  const ops = input.readOps + input.writeOps;
  const readShare = ops > 0 ? input.readOps / ops : 0.5;
  const fileBytes = input.wssBytes === null ? DEFAULT_FILE_BYTES : Math.max(MIN_FILE_BYTES, Math.ceil(input.wssBytes / MIB) * MIB);
  const depth = medianDepth(input.outstanding);
  // The name comes from an agent: printable ASCII only in a comment, a safe section name.
  const shown = input.displayName?.replace(/[^\x20-\x7e]/g, '?') ?? null;
  const name = input.displayName ?? input.volumeId;
  const lines = [
    `; fio job made by Tierwise from volume ${input.volumeId}${shown ? ` (${shown})` : ''}`,
    `; measured ${input.from.toISOString()} to ${input.to.toISOString()}: ${ops} I/Os, ${(100 * readShare).toFixed(1)} % reads, ` +
      `${input.seconds > 0 ? (ops / input.seconds).toFixed(1) : '0'} IOPS; working set ${input.wssBytes === null ? 'not known yet (1 GiB assumed)' : `${(input.wssBytes / MIB).toFixed(1)} MiB`}`,
    '; block sizes: the mean size of each vscsiStats ioLength bin; random share: commands not starting where the previous one ended',
    `; iodepth: I/Os in flight at the median command${input.outstanding ? '' : ' (none measured: 1)'}`,
    '; run: fio --filename=/path/to/test/file-or-device THIS_FILE  (the file is written: never point it at data you keep)',
    '',
    '[global]',
    'ioengine=libaio',
    'direct=1',
    'time_based=1',
    'runtime=60',
    // Without it fio touches each block once per pass and shrinks I/Os to fit the blocks left,
    // which would change the block sizes.
    'norandommap=1',
    `size=${fileBytes}`,
    '',
    `[${name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64) || 'volume'}]`,
    'rw=randrw',
    `rwmixread=${Math.round(100 * readShare)}`,
    `bssplit=${bssplitOf(input.blockSizes.filter((b) => b.direction === 'read'))},${bssplitOf(input.blockSizes.filter((b) => b.direction === 'write'))}`,
    `percentage_random=${randomPercent(input.seekRead)},${randomPercent(input.seekWrite)}`,
    `iodepth=${depth}`,
  ];
  if (input.rate && input.seconds > 0) {
    lines.push(`rate_iops=${Math.max(1, Math.round(input.readOps / input.seconds))},${Math.max(1, Math.round(input.writeOps / input.seconds))}`);
  }
  return `${lines.join('\n')}\n`;
}
