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
