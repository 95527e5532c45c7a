import type { BlockSizeBin } from "./api-schemas";
import { formatBytes } from "./format";

/**
 * vscsiStats ioLength bin upper bounds in bytes (inclusive), as in proto/METRICS.md;
 * one more open bin ">524288" follows. A bin holds sizes above the previous bound up
 * to its own: the 4096 bin holds exactly 4096 B, the 4095 bin 2049..4095 B.
 */
export const IO_LENGTH_BOUNDS = [
  512, 1024, 2048, 4095, 4096, 8191, 8192, 16383, 16384, 32768, 49152, 65535, 65536, 81920, 131072, 262144, 524288,
] as const;

/** The 18 bin labels the API uses (tierwise.io.size_bin): "512" … "524288", ">524288". */
const [firstBound, ...otherBounds] = IO_LENGTH_BOUNDS.map(String);
export const IO_LENGTH_LABELS: [string, ...string[]] = [firstBound, ...otherBounds, `>${IO_LENGTH_BOUNDS.at(-1)}`];

/** One x-axis category of the block-size chart: one ioLength bin, both directions. */
export interface BinColumn {
  /** Short axis label: "4 KiB" (exactly), "<4 KiB" (2049..4095 B), "≤32 KiB", ">512 KiB". */
  label: string;
  /** Inclusive byte range for tooltips, e.g. "2049–4095 B". */
  range: string;
  read: { ops: number; bytes: number };
  write: { ops: number; bytes: number };
}

/**
 * Lays block-size rows (sparse: only bins with I/O) onto all 18 ioLength bins in order,
 * so every volume's chart has the same x axis as vscsiStats; missing bins count zero.
 */
export function toBinColumns(rows: readonly BlockSizeBin[]): BinColumn[] {
  const find = (label: string, direction: BlockSizeBin["direction"]) => {
    const row = rows.find((r) => r.bin_label === label && r.direction === direction);
    return { ops: row?.ops ?? 0, bytes: row?.bytes ?? 0 };
  };
  return IO_LENGTH_LABELS.map((key, i) => {
    const lo = i === 0 ? 1 : IO_LENGTH_BOUNDS[i - 1] + 1;
    const hi: number | null = IO_LENGTH_BOUNDS[i] ?? null;
    return { label: binLabel(lo, hi), range: binRange(lo, hi), read: find(key, "read"), write: find(key, "write") };
  });
}

function binLabel(lo: number, hi: number | null): string {
  if (hi == null) return `>${formatBytes(lo - 1)}`;
  if (lo === hi) return formatBytes(hi);
  if ((hi + 1) % 1024 === 0) return `<${formatBytes(hi + 1)}`;
  return `≤${formatBytes(hi)}`;
}

function binRange(lo: number, hi: number | null): string {
  if (hi == null) return `${lo} B and larger`;
  return lo === hi ? `exactly ${hi} B` : `${lo}–${hi} B`;
}

/** Short label of an ioLength bin key as the API names it ("4096" -> "4 KiB", ">524288" -> ">512 KiB"). */
export function sizeBinLabel(key: string): string {
  const i = IO_LENGTH_LABELS.indexOf(key);
  if (i < 0) return key;
  return binLabel(i === 0 ? 1 : IO_LENGTH_BOUNDS[i - 1] + 1, IO_LENGTH_BOUNDS[i] ?? null);
}
