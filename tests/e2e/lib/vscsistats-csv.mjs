// A plain reader of `vscsiStats -p all -c` output (../shared/traces/README.md §7), independent of
// the agent's: the end-to-end test compares what the api answers for an imported file with this.
import { readFileSync } from 'node:fs';

/** The file's histograms by title: {min, max, mean, count, counts: [frequency per bucket]}. */
export function readVscsiStatsCsv(file) {
  const histograms = {};
  let current = null;
  for (const line of readFileSync(file, 'utf8').split(/\r?\n/)) {
    if (line.startsWith('Histogram: ')) {
      current = { counts: [] };
      histograms[line.slice('Histogram: '.length).split(',')[0]] = current;
    } else if (/^(min|max|mean|count),/.test(line)) {
      const [key, value] = line.split(',');
      current[key] = Number(value);
    } else if (/^\d+,-?\d+$/.test(line)) {
      current.counts.push(Number(line.split(',')[0]));
    }
  }
  return histograms;
}
