import type { NestExpressApplication } from '@nestjs/platform-express';
import { BIND_ADDRESS, createServiceApp } from '@tierwise/common';
import { AppModule } from '../../src/app.module.js';
import type { AdmissionLimits } from '../../src/telemetry/telemetry-admission.js';
import { INGEST_APP_OPTIONS, configureIngestHttp } from '../../src/ingest-http.js';

/**
 * The ingest application as main.ts builds it, listening on an ephemeral port of 127.0.0.1
 * (`limits`: the telemetry admission bounds, main.ts's defaults unless given).
 */
export async function startIngest(limits?: AdmissionLimits): Promise<{ app: NestExpressApplication; url: string }> {
  const app = await createServiceApp(AppModule, { ...INGEST_APP_OPTIONS, logLevels: ['fatal', 'error'] });
  configureIngestHttp(app, limits);
  await app.listen(0, BIND_ADDRESS);
  return { app, url: await app.getUrl() };
}
