import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A free TCP port on 127.0.0.1 (bound then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A built service started as its own process (`node dist/main.js`), with the test profile's environment. */
export class ServiceProcess {
  readonly output: string[] = [];

  private constructor(readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
  }

  /**
   * Starts `main` and waits until `healthUrl` answers 200 (at most 20 s).
   * @throws Error with the process output when it exits or stays unhealthy.
   */
  static async start(main: string, env: NodeJS.ProcessEnv, healthUrl: string): Promise<ServiceProcess> {
    const service = new ServiceProcess(spawn(process.execPath, [main], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (service.child.exitCode !== null) break;
      const healthy = await fetch(healthUrl).then((r) => r.ok, () => false);
      if (healthy) return service;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    service.child.kill('SIGKILL');
    throw new Error(`${main} did not become healthy:\n${service.output.join('')}`);
  }

  /** Sends `signal` (SIGTERM: clean stop; SIGKILL: kill -9) and waits for the exit. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.kill(signal);
    await exited;
  }
}

/** dist/main.js of the api workspace (built before these tests: a devDependency). */
export const API_MAIN = join(dirname(createRequire(import.meta.url).resolve('@tierwise/api/package.json')), 'dist', 'main.js');
/** dist/main.js of this workspace. */
export const NOTIFIER_MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'main.js');
