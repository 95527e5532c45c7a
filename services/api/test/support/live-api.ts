/** The real api (AppModule + GET /openapi.json) listening on a free loopback port, for the HTTP suites. */
import { type AddressInfo, createServer } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { BIND_ADDRESS, createServiceApp } from '@tierwise/common';
import { applyProxyTrust } from '../../src/accounts/proxy-trust.js';
import { AppModule } from '../../src/app.module.js';
import { serveOpenApiDocument } from '../../src/openapi.js';

export interface LiveApi {
  app: NestExpressApplication;
  /** Base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
}

/**
 * Starts the api as `main.ts` does, logging only errors; close it with `app.close()`.
 * @param port the port to listen on (default: any free one).
 */
export async function startApi(port = 0): Promise<LiveApi> {
  const app = await createServiceApp(AppModule, { logLevels: ['fatal', 'error'] });
  applyProxyTrust(app);
  await serveOpenApiDocument(app);
  await app.listen(port, BIND_ADDRESS);
  return { app, url: await app.getUrl() };
}

/** A TCP port free on 127.0.0.1 right now (for a server whose URL must be known before it starts). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, BIND_ADDRESS, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
