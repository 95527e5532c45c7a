// Staleness check of the generated SDK types: regenerates src/generated/openapi.ts from
// services/api/openapi.json (the committed OpenAPI document) into a temporary file with the
// same openapi-typescript command as `npm run generate`, and fails when it differs from the
// committed file. Run by `npm run lint` (CI) after the api build has refreshed openapi.json.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const committed = join(root, 'src/generated/openapi.ts');
const packageJson = createRequire(import.meta.url).resolve('openapi-typescript/package.json');
const cli = join(dirname(packageJson), JSON.parse(readFileSync(packageJson, 'utf8')).bin['openapi-typescript']);
const dir = mkdtempSync(join(tmpdir(), 'tierwise-sdk-'));
try {
  const fresh = join(dir, 'openapi.ts');
  execFileSync(process.execPath, [cli, join(root, '../../services/api/openapi.json'), '--output', fresh], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (readFileSync(fresh, 'utf8') !== readFileSync(committed, 'utf8')) {
    console.error('sdk/typescript/src/generated/openapi.ts is stale: run `npm run generate -w @tierwise/sdk` and commit it');
    process.exit(1);
  }
  console.log('sdk/typescript/src/generated/openapi.ts matches services/api/openapi.json');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
