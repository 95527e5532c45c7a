import type { NestExpressApplication } from '@nestjs/platform-express';
import { BIND_ADDRESS, createServiceApp } from '@tierwise/common';
import { AppModule } from '../../src/app.module.js';
import { useAgentBodyParsers } from '../../src/controllers/protobuf-body.js';

/** The ingest application as main.ts builds it, listening on an ephemeral port of 127.0.0.1. */
export async function startIngest(): Promise<{ app: NestExpressApplication; url: string }> {
  const app = await createServiceApp(AppModule, { bodyParser: false, logLevels: ['fatal', 'error'] });
  useAgentBodyParsers(app);
  await app.listen(0, BIND_ADDRESS);
  return { app, url: await app.getUrl() };
}
