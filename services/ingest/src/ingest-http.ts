import type { NestExpressApplication } from '@nestjs/platform-express';
import { type AdmissionLimits, DEFAULT_ADMISSION_LIMITS, useTelemetryAdmission } from './telemetry/telemetry-admission.js';
import { useAgentBodyParsers } from './telemetry/protobuf-body.js';

/**
 * The HTTP front of ingest, in order: the authentication and admission of telemetry requests
 * (before any body is read), then the protobuf and JSON body parsers. `main.ts` and the tests
 * build the app with it.
 */
export function configureIngestHttp(app: NestExpressApplication, limits: AdmissionLimits = DEFAULT_ADMISSION_LIMITS): void {
  useTelemetryAdmission(app, limits);
  useAgentBodyParsers(app);
}
