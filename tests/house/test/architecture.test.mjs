// ARCHITECTURE.md is the map of the repository (one row per folder, then the
// invariants): a row whose folder is gone, or a map grown into a report, fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MAP = readFileSync(path.join(ROOT, 'ARCHITECTURE.md'), 'utf8');
/** The most lines the map may have (issue 20). */
const MAX_LINES = 150;
/** The most words a folder's row may say; its detail lives in the folder's README (issue 20). */
const MAX_ROW_WORDS = 25;

/** The first cell of every row of the folder table: `| \`folder/\` | what lives there |`. */
function mappedFolders(text) {
  return [...text.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
}

test('every folder ARCHITECTURE.md maps exists', () => {
  const folders = mappedFolders(MAP);
  assert.ok(folders.length >= 10, `the folder table has ${folders.length} rows`);
  const missing = folders.filter((f) => !existsSync(path.join(ROOT, f)));
  assert.deepEqual(missing, [], `ARCHITECTURE.md names folders that do not exist: ${missing.join(', ')}`);
});

test('the check finds a row whose folder is gone', () => {
  const planted = `${MAP}\n| \`no-such-folder/\` | planted |\n`;
  assert.ok(mappedFolders(planted).some((f) => !existsSync(path.join(ROOT, f))));
});

test(`ARCHITECTURE.md stays under ${MAX_LINES} lines`, () => {
  const lines = MAP.split('\n').length - (MAP.endsWith('\n') ? 1 : 0);  // as wc -l counts
  assert.ok(lines < MAX_LINES, `${lines} lines`);
});

/** Every row of the folder table as [folder, words of its description]. */
function rowWords(text) {
  return [...text.matchAll(/^\| `([^`]+)` \| (.*) \|$/gm)].map((m) => [m[1], m[2].split(/\s+/).filter(Boolean).length]);
}

test(`each folder's row says at most ${MAX_ROW_WORDS} words`, () => {
  const long = rowWords(MAP).filter(([, words]) => words > MAX_ROW_WORDS);
  assert.deepEqual(long, [], `rows over ${MAX_ROW_WORDS} words (move the detail to the folder's README)`);
});

test('the check finds a row grown into a report', () => {
  const planted = `${MAP}\n| \`db/\` | ${'word '.repeat(MAX_ROW_WORDS + 1)}|\n`;
  assert.ok(rowWords(planted).some(([, words]) => words > MAX_ROW_WORDS));
});
