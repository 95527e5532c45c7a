// A checkout in a folder only its owner may enter (root's home on Debian, a
// `mktemp -d` folder: 0700) runs its stack all the same: as root, PostgreSQL
// runs as the `postgres` user, which cannot reach the state directory there, so
// infra/local/postgres.sh keeps the server's directories in
// /var/lib/tierwise-postgres/<hash> and links them from the state directory
// (issue 20: `./tierwise demo` stopped at initdb). A stack of its own (port base
// 400, its own state directory) so the test stack's PostgreSQL is not touched.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmod, lstat, mkdtemp, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from '../lib/stack.mjs';

const root = process.getuid?.() === 0;
let folder;
let state;

/** infra/local/postgres.sh ARGS with this test's state directory and ports; {code, stdout, stderr}. */
function postgres(...args) {
  return new Promise((resolve) => {
    execFile(path.join(ROOT, 'infra/local/postgres.sh'), args, {
      env: { ...process.env, TIERWISE_PROFILE: 'test', TIERWISE_PORT_BASE: '400', TIERWISE_STATE_DIR: state },
    }, (error, stdout, stderr) => resolve({ code: error ? error.code : 0, stdout, stderr }));
  });
}

after(async () => {
  if (!state) return;
  await postgres('stop');
  const link = await readlink(path.join(state, 'postgres')).catch(() => null);
  if (link) await rm(path.dirname(link), { recursive: true, force: true });
  await rm(folder, { recursive: true, force: true });
});

test('PostgreSQL starts from a state directory in a 0700 folder, and a removed state directory starts afresh', { skip: !root && 'the postgres user and the 0700 folder matter only to root' }, async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'tierwise-private-'));
  await chmod(folder, 0o700);
  state = path.join(folder, 'checkout/.local/test');

  const started = await postgres('start');
  assert.equal(started.code, 0, `${started.stdout}${started.stderr}`);
  assert.ok((await lstat(path.join(state, 'postgres'))).isSymbolicLink(), 'the data lives outside the private folder');
  const marker = await postgres('psql', '-tA', '-c', 'CREATE TABLE private_folder_marker (); SELECT 1');
  assert.equal(marker.code, 0, marker.stderr);
  assert.equal((await postgres('status')).code, 0, 'running');

  // A fresh start: the state directory removed while the stack is down.
  assert.equal((await postgres('stop')).code, 0);
  await rm(state, { recursive: true, force: true });
  const again = await postgres('start');
  assert.equal(again.code, 0, `${again.stdout}${again.stderr}`);
  const tables = await postgres('psql', '-tA', '-c', "SELECT count(*) FROM pg_tables WHERE tablename = 'private_folder_marker'");
  assert.equal(tables.stdout.trim(), '0', 'the removed state took its data with it');
});
