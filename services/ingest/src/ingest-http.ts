import type { NestExpressApplication } from '@nestjs/platform-express';
import { useAdmissionLimit } from './controllers/admission-limit.js';
import { useAgentBodyParsers } from './controllers/protobuf-body.js';
import { MAX_OPEN_TELEMETRY_REQUESTS } from './ingest.constants.js';

/**
 * The HTTP front of ingest, in order: the load shedding of telemetry requests (before any body
 * is read), then the protobuf and JSON body parsers. `main.ts` and the tests build the app with it.
 */
export function configureIngestHttp(app: NestExpressApplication, openTelemetryRequests = MAX_OPEN_TELEMETRY_REQUESTS): void {
  useAdmissionLimit(app, openTelemetryRequests);
  useAgentBodyParsers(app);
}
