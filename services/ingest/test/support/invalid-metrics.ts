/**
 * The batches of proto/testdata/invalid_metrics.json (proto/METRICS.md "Limits"), which the
 * metrics job's parser rejects (stream-jobs InvalidMetricsCorpusTest): each is the base golden
 * batch with the case's `set` applied.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ExportMetricsServiceRequest, type Json } from '@tierwise/proto';

export interface InvalidMetricsCase {
  name: string;
  set: Record<string, Json>;
  /** A part of the refusal's message. */
  reason: string;
}

const testdata = (name: string): Json => JSON.parse(readFileSync(createRequire(import.meta.url).resolve(`@tierwise/proto/testdata/${name}`), 'utf8'));
const corpus = testdata('invalid_metrics.json') as unknown as { base: string; cases: InvalidMetricsCase[] };

export const INVALID_METRICS_CASES: readonly InvalidMetricsCase[] = corpus.cases;

/** The base batch's interval, Unix epoch nanoseconds (as decimal strings in its JSON). */
export const BASE_INTERVAL = { start: 1_700_000_000_000_000_000n, end: 1_700_000_010_000_000_000n };

/**
 * Puts `value` at the dotted `path` of `node` (`*`: every key or index the rest of the path
 * leads on from; an index one past the end appends).
 */
function setAt(node: Json, path: string[], value: Json): void {
  if (typeof node !== 'object' || node === null) return;
  const [key, ...rest] = path;
  const container = node as Record<string, Json>;
  for (const k of key === '*' ? Object.keys(container) : [key]) {
    if (rest.length === 0) container[k] = structuredClone(value);
    else setAt(container[k], rest, value);
  }
}

/**
 * The base batch with `set` applied; with `endUnixNano`, every timestamp is moved so that the
 * interval ends then (for a live ingest, which refuses 2023's timestamps as too old).
 */
export function invalidMetricsBatch(set: Record<string, Json> = {}, endUnixNano?: bigint): ExportMetricsServiceRequest {
  const json = testdata(corpus.base);
  for (const [path, value] of Object.entries(set)) setAt(json, path.split('.'), value);
  let text = JSON.stringify(json);
  if (endUnixNano !== undefined) {
    const shift = endUnixNano - BASE_INTERVAL.end;
    text = text.replace(/"(17\d{17})"/g, (_, ns: string) => `"${BigInt(ns) + shift}"`);
  }
  return ExportMetricsServiceRequest.fromJson(JSON.parse(text));
}
