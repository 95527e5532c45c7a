/** The real api (AppModule + GET /openapi.json) listening on a free loopback port, for the HTTP suites. */
import type { NestExpressApplication } from '@nestjs/platform-express';
import { BIND_ADDRESS, createServiceApp } from '@tierwise/common';
import { AppModule } from '../../src/app.module.js';
import { serveOpenApiDocument } from '../../src/openapi.js';

export interface LiveApi {
  app: NestExpressApplication;
  /** Base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
}

/** Starts the api as `main.ts` does, logging only errors; close it with `app.close()`. */
export async function startApi(): Promise<LiveApi> {
  const app = await createServiceApp(AppModule, { logLevels: ['fatal', 'error'] });
  await serveOpenApiDocument(app);
  await app.listen(0, BIND_ADDRESS);
  return { app, url: await app.getUrl() };
}
