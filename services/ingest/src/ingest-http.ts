import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ServiceAppOptions } from '@tierwise/common';
import { type AdmissionLimits, DEFAULT_ADMISSION_LIMITS, useTelemetryAdmission } from './telemetry/telemetry-admission.js';
import { useAgentBodyParsers } from './telemetry/protobuf-body.js';

/**
 * How ingest's app is created (`main.ts` and the tests): its own body parsers (below), and a log
 * line only for the unusual requests, since every agent sends one or two a host every 10 s
 * (`RequestLogMode`, docs/observability.md "Request logs").
 */
export const INGEST_APP_OPTIONS = { bodyParser: false, requestLog: 'unusual' } as const satisfies ServiceAppOptions;

/**
 * The HTTP front of ingest, in order: the authentication and admission of telemetry requests
 * (before any body is read), then the protobuf and JSON body parsers. `main.ts` and the tests
 * build the app with it.
 */
export function configureIngestHttp(app: NestExpressApplication, limits: AdmissionLimits = DEFAULT_ADMISSION_LIMITS): void {
  useTelemetryAdmission(app, limits);
  useAgentBodyParsers(app);
}
