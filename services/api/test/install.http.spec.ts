/**
 * GET /install.sh and /downloads/agent/{file}: the installer with this api's URLs written in, and
 * only the packages SHA256SUMS lists (the full install runs in tests/e2e/test/install.test.mjs).
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from './support/live-api.js';

const INSTALL_SH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../edge-agent/packaging/install.sh');
const PACKAGE = 'tierwise-agent_0.1.0_linux-amd64.tar.gz';

describe('agent installer downloads (real api)', () => {
  let app: NestExpressApplication;
  let url: string;
  const packageBytes = Buffer.from('not really a tarball, but bytes to compare');

  beforeAll(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tierwise-packages-'));
    await copyFile(INSTALL_SH, path.join(dir, 'install.sh'));
    await writeFile(path.join(dir, PACKAGE), packageBytes);
    await writeFile(path.join(dir, 'SHA256SUMS'), `${createHash('sha256').update(packageBytes).digest('hex')}  ${PACKAGE}\n`);
    await writeFile(path.join(dir, 'unlisted.txt'), 'not for download');
    process.env.TIERWISE_AGENT_PACKAGES_DIR = dir;
    process.env.TIERWISE_PUBLIC_INGEST_URL = 'https://ingest.example.test:4318/';
    ({ app, url } = await startApi());
  });

  afterAll(async () => {
    await app.close();
    delete process.env.TIERWISE_AGENT_PACKAGES_DIR;
    delete process.env.TIERWISE_PUBLIC_INGEST_URL;
  });

  it("serves install.sh with the URL it was fetched from and the agent gateway's (the public ingest URL) written in", async () => {
    const response = await fetch(`${url}/install.sh`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/x-shellscript/);
    const script = await response.text();
    expect(script).toMatch(/^#!\/bin\/sh\n/);
    expect(script).toContain(`DEFAULT_API_URL="${url}"\n`);
    expect(script).toContain('DEFAULT_GATEWAY_URL="https://ingest.example.test:4318"\n');
    expect(script).not.toContain('@TIERWISE_');
  });

  it('refuses to write a Host header with shell characters into the script', async () => {
    const { port } = new URL(url);
    const status = await new Promise<number>((resolve, reject) =>
      request({ host: '127.0.0.1', port, path: '/install.sh', headers: { host: 'evil";rm -rf /;"' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on('error', reject)
        .end(),
    );
    expect(status).toBe(400);
  });

  it('serves the packages SHA256SUMS lists, and nothing else of the directory', async () => {
    const sums = await fetch(`${url}/downloads/agent/SHA256SUMS`);
    expect(sums.status).toBe(200);
    expect(await sums.text()).toContain(PACKAGE);
    const pkg = await fetch(`${url}/downloads/agent/${PACKAGE}`);
    expect(pkg.status).toBe(200);
    expect(Buffer.from(await pkg.arrayBuffer())).toEqual(packageBytes);
    for (const name of ['unlisted.txt', 'install.sh', '..%2F..%2Fetc%2Fpasswd']) {
      const refused = await fetch(`${url}/downloads/agent/${name}`);
      expect({ name, status: refused.status }).toEqual({ name, status: 404 });
      expect(await refused.json()).toMatchObject({ code: 'not_found' });
    }
  });
});
