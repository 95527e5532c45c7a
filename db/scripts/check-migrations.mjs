// Lint for db/migrations: every file is "<13-digit timestamp>_<snake_name>.sql"
// with one "-- Up Migration" section followed by one "-- Down Migration"
// section (the markers node-pg-migrate splits SQL migrations on), and the
// timestamps are unique. Exits 1 listing every problem found.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = new URL('../migrations/', import.meta.url).pathname;
const problems = [];
const seen = new Set();
for (const name of readdirSync(dir).sort()) {
  const match = /^(\d{13})_[a-z0-9_]+\.sql$/.exec(name);
  if (!match) {
    problems.push(`${name}: name must be <13-digit timestamp>_<snake_case>.sql`);
    continue;
  }
  if (seen.has(match[1])) problems.push(`${name}: timestamp ${match[1]} is used twice`);
  seen.add(match[1]);
  const lines = readFileSync(join(dir, name), 'utf8').split('\n').map((l) => l.trim());
  const up = lines.filter((l) => l === '-- Up Migration').length;
  const down = lines.filter((l) => l === '-- Down Migration').length;
  if (up !== 1 || down !== 1) {
    problems.push(`${name}: needs exactly one "-- Up Migration" and one "-- Down Migration" line (found ${up} and ${down})`);
  } else if (lines.indexOf('-- Up Migration') > lines.indexOf('-- Down Migration')) {
    problems.push(`${name}: "-- Up Migration" must come before "-- Down Migration"`);
  }
}
if (problems.length > 0) {
  console.error(`db/migrations: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`db/migrations: ${seen.size} migration(s) OK`);
