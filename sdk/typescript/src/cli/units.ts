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
