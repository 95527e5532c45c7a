/**
 * Prints rows as a table with aligned columns (header first), or as JSON lines with --json.
 * @param columns header and cell of each column.
 */
export function printTable<T>(rows: readonly T[], columns: readonly [string, (row: T) => string][], out: NodeJS.WritableStream = process.stdout): void {
  const cells = [columns.map(([header]) => header), ...rows.map((row) => columns.map(([, cell]) => cell(row)))];
  const widths = columns.map((_, index) => Math.max(...cells.map((line) => line[index].length)));
  for (const line of cells) {
    out.write(`${line.map((cell, index) => (index === line.length - 1 ? cell : cell.padEnd(widths[index]))).join('  ')}\n`);
  }
}

/** Prints a value as indented JSON. */
export function printJson(value: unknown, out: NodeJS.WritableStream = process.stdout): void {
  out.write(`${JSON.stringify(value, null, 2)}\n`);
}
