import { CliError } from './config.js';

/** Binary size units (IEC 80000-13): KiB = 1024 bytes. */
const UNITS: Readonly<Record<string, number>> = { '': 1, B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3, TiB: 1024 ** 4 };

/**
 * Bytes of a size such as `68719476736`, `64GiB` or `512 MiB` (binary units only).
 * @throws CliError naming the accepted forms.
 */
export function parseBytes(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(B|KiB|MiB|GiB|TiB)?$/.exec(text.trim());
  if (!match) {
    throw new CliError(`'${text}' is not a size: use bytes or a binary unit, e.g. 64GiB, 512MiB`);
  }
  return Math.round(Number(match[1]) * UNITS[match[2] ?? '']);
}

/** A byte count for people: the largest binary unit with a value of at least 1, e.g. 64 GiB. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) {
    return '-';
  }
  const unit = (['TiB', 'GiB', 'MiB', 'KiB'] as const).find((name) => bytes >= UNITS[name]) ?? 'B';
  const value = bytes / UNITS[unit];
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
}

/** A ratio 0..1 as a percentage with one decimal, or '-'. */
export function formatRatio(ratio: number | null | undefined): string {
  return ratio === null || ratio === undefined ? '-' : `${(ratio * 100).toFixed(1)} %`;
}

/** A throughput in bytes per second, e.g. `4.9 MiB/s`, or '-'. */
export function formatBytesPerSecond(bytesPerSecond: number | null | undefined): string {
  return bytesPerSecond === null || bytesPerSecond === undefined ? '-' : `${formatBytes(bytesPerSecond)}/s`;
}

/** A latency in microseconds with one decimal, e.g. `180.5 µs`, or '-' (no latency samples). */
export function formatMicroseconds(microseconds: number | null | undefined): string {
  return microseconds === null || microseconds === undefined ? '-' : `${microseconds.toFixed(1)} µs`;
}

/** A hit ratio error (measured - predicted, 0..1 scale) in signed percentage points, e.g. `-11.0 pp`, or '-'. */
export function formatRatioError(error: number | null | undefined): string {
  return error === null || error === undefined ? '-' : `${error >= 0 ? '+' : ''}${(error * 100).toFixed(1)} pp`;
}

/**
 * The cache mode of `--mode`: `write-through` (or `wt`), `write-back+N` (or `wb+N`) for WB+n.
 * @throws CliError for anything else.
 */
export function parseMode(text: string): { mode: 'write-through' } | { mode: 'write-back'; write_back_copies: number } {
  if (/^(write-through|wt)$/i.test(text)) {
    return { mode: 'write-through' };
  }
  const writeBack = /^(?:write-back|wb)\+(\d)$/i.exec(text);
  if (writeBack) {
    return { mode: 'write-back', write_back_copies: Number(writeBack[1]) };
  }
  throw new CliError(`--mode must be write-through (wt) or write-back+N (wb+N, N peers 0-8), got '${text}'`);
}
