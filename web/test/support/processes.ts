import { spawn, type ChildProcess } from "node:child_process";
import { connect } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

/** A server process the test started, with the tail of its output for failure messages. */
export interface Server {
  name: string;
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/** True when something accepts TCP connections on 127.0.0.1:port. */
function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/**
 * Starts `node args…` in its own process group and waits until `readyUrl` answers 2xx.
 * @param port  the port the server will bind; must be free (else the test would talk to a stranger).
 * @throws Error when the port is taken, the process exits early, or it is not ready in `timeoutMs`.
 */
export async function startServer(options: {
  name: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  port: number;
  readyUrl: string;
  timeoutMs?: number;
}): Promise<Server> {
  const { name, args, cwd, env, port, readyUrl, timeoutMs = 60_000 } = options;
  if (await portOpen(port)) throw new Error(`${name}: port ${port} is already in use; stop whatever listens there first`);
  const child = spawn(process.execPath, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  const keep = (chunk: Buffer) => (log = (log + chunk.toString()).slice(-8000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const server: Server = {
    name,
    child,
    output: () => log,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(-child.pid!, "SIGTERM");
      await Promise.race([exited, sleep(10_000).then(() => process.kill(-child.pid!, "SIGKILL"))]);
    },
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode} before it was ready:\n${log}`);
    const ok = await fetch(readyUrl, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false);
    if (ok) return server;
    await sleep(250);
  }
  await server.stop();
  throw new Error(`${name} was not ready at ${readyUrl} within ${timeoutMs} ms:\n${log}`);
}
