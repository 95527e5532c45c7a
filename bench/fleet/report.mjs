/**
 * The fleet run's figures: per-stage cost per volume from two cost snapshots (costs.mjs) taken
 * at the start and the end of the measured span, and the sender's counts over that span.
 *
 * costReport({before, after, volumes, sent: {metrics, refs}}) -> {rows: [{stage, measure, value, unit}]}
 *   value null: not measurable in this run (the unit says why)
 *   sent: the sender's accepted bytes and volume-intervals over the span (differences)
 * percentile(values, p) -> the p-th percentile (nearest rank) of values, or null
 * markdownTable(rows) -> the rows as a Markdown table
 */
import { TABLE_GROUPS } from './costs.mjs';

const DAY_S = 86_400;

export function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function costReport({ before, after, volumes, sent }) {
  const seconds = (after.atMs - before.atMs) / 1000;
  const volumeHours = (volumes * seconds) / 3600;
  const volumeDays = (volumes * seconds) / DAY_S;
  const intervals = sent.metrics.volumeIntervals;
  const rows = [];
  const add = (stage, measure, value, unit) => rows.push({ stage, measure, value: Number(value.toPrecision(3)), unit });
  for (const [name, cpu] of Object.entries(after.cpuSeconds)) {
    add(name, 'CPU', (cpu - (before.cpuSeconds[name] ?? 0)) / volumeHours, 'CPU-s per volume-hour');
  }
  for (const [name, cpu] of Object.entries(after.flinkCpuSeconds)) {
    // A thread's CPU leaves with the thread: fewer seconds than before means the job restarted
    // its tasks (a failure) within the span, and the group's figure is unknown.
    const spent = cpu - (before.flinkCpuSeconds[name] ?? 0);
    if (spent >= 0) add(`stream-jobs: ${name}`, 'CPU', spent / volumeHours, 'CPU-s per volume-hour');
    else rows.push({ stage: `stream-jobs: ${name}`, measure: 'CPU', value: null, unit: 'unknown: the job restarted its tasks' });
  }
  add('fleet simulator (not the stack)', 'CPU', (after.simulatorCpuSeconds - before.simulatorCpuSeconds) / volumeHours, 'CPU-s per volume-hour');
  add('wire', 'metrics request bytes', sent.metrics.bytes / intervals, 'bytes per volume-interval');
  add('wire', 'reference batch bytes', sent.refs.bytes / intervals, 'bytes per volume-interval');
  for (const [topic, bytes] of Object.entries(after.kafkaBytes)) {
    add('Kafka', `${topic} log`, (bytes - before.kafkaBytes[topic]) / intervals, 'bytes per volume-interval');
  }
  for (const [group, { seconds: width, window }] of Object.entries(TABLE_GROUPS)) {
    const end = after.tables[group];
    if (window) {
      // Rows per volume-day: the rows the span added, where the span holds many windows;
      // for windows longer than a quarter of the span, rows per window (volume, host, cluster
      // and tenant scopes) times windows per day.
      const rowsPerVolumeDay = width <= seconds / 4
        ? (end.rows - before.tables[group].rows) / volumeDays
        : (end.windows ? end.rows / end.windows / volumes : 0) * (DAY_S / width);
      add('PostgreSQL', group, end.rows ? (end.bytes / end.rows) * rowsPerVolumeDay : 0, 'bytes per volume-day');
    } else {
      add('PostgreSQL', group, end.bytes / volumes, 'bytes per volume');
    }
  }
  add('PostgreSQL', 'WAL written', (after.walBytes - before.walBytes) / volumeDays, 'bytes per volume-day');
  const writes = Object.entries(after.rowWrites ?? {})
    .map(([table, n]) => [table, (n - (before.rowWrites?.[table] ?? 0)) / intervals])
    .filter(([, perInterval]) => perInterval >= 0.001)
    .sort((x, y) => y[1] - x[1]);
  for (const [table, perInterval] of writes) add('PostgreSQL row writes', table, perInterval, 'rows inserted or updated per volume-interval');
  for (const [operator, bytes] of Object.entries(after.stateBytes).sort((x, y) => y[1] - x[1])) {
    if (bytes >= 100 * volumes) add('stream-jobs state', operator, bytes / volumes, 'bytes per volume');
  }
  const total = Object.values(after.stateBytes).reduce((a, b) => a + b, 0);
  if (total > 0) add('stream-jobs state', 'all operators (newest checkpoint)', total / volumes, 'bytes per volume');
  else rows.push({ stage: 'stream-jobs state', measure: 'all operators', value: null, unit: 'unknown: no running job at the end' });
  return { seconds, rows };
}

export function markdownTable(rows) {
  const lines = ['| stage | measure | value | unit |', '| --- | --- | ---: | --- |'];
  for (const r of rows) lines.push(`| ${r.stage} | ${r.measure} | ${r.value === null ? '–' : r.value.toLocaleString('en-US')} | ${r.unit} |`);
  return lines.join('\n');
}
