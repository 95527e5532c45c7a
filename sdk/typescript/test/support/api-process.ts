/**
 * The real api as its own process (services/api/dist/main.js, built by turbo before these
 * tests), on a free loopback port, against the test profile's PostgreSQL (TIERWISE_* from
 * infra/local/env.sh). The SDK and the CLI talk to it over real HTTP.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../../../services/api/dist/main.js', import.meta.url));

export interface ApiProcess {
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * Starts the api and waits until GET /healthz answers 200 (at most 20 s).
 * @param env extra variables, e.g. TIERWISE_API_RATE_LIMIT_PER_MINUTE.
 */
export async function startApiProcess(env: Record<string, string> = {}): Promise<ApiProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [MAIN], {
    env: { ...process.env, TIERWISE_API_PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`the api exited with ${child.exitCode}: ${stderr}`);
    }
    const healthy = await fetch(`${url}/healthz`).then((response) => response.ok, () => false);
    if (healthy) break;
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`the api did not answer on ${url} within 20 s: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    },
  };
}
