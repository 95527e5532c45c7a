import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AgentCredentialCache, type AgentRequest, ApiError, ErrorCode, sendApiError } from '@tierwise/common';
import type { NextFunction, Request, Response } from 'express';
import {
  BODY_GRACE_MS,
  MAX_BODY_BYTES,
  MAX_OPEN_TELEMETRY_REQUESTS,
  MAX_OPEN_TELEMETRY_REQUESTS_PER_AGENT,
  MIN_BODY_BYTES_PER_SECOND,
  RETRY_AFTER_BUSY_SECONDS,
} from '../ingest.constants.js';

/** The routes whose bodies are telemetry batches (the policy long-poll is not limited here). */
const TELEMETRY_PATHS = ['/v1/metrics', '/v1/refs', '/v1/refs/batches'];

/** The bounds of {@link useTelemetryAdmission} (defaults: the ingest.constants). */
export interface AdmissionLimits {
  /** Telemetry requests open at once in this process. */
  open: number;
  /** Telemetry requests of one agent credential open at once. */
  openPerAgent: number;
  /** Milliseconds an admitted body may take beyond what {@link MIN_BODY_BYTES_PER_SECOND} allows. */
  bodyGraceMs: number;
}

export const DEFAULT_ADMISSION_LIMITS: AdmissionLimits = {
  open: MAX_OPEN_TELEMETRY_REQUESTS,
  openPerAgent: MAX_OPEN_TELEMETRY_REQUESTS_PER_AGENT,
  bodyGraceMs: BODY_GRACE_MS,
};

/**
 * Registers the front door of telemetry requests; call it before the body parsers. In order,
 * before any byte of the body is read (docs/security.md "Slow clients"):
 *
 * 1. Authentication: the agent credential is checked ({@link AgentCredentialCache}: from memory
 *    while PostgreSQL has not said it changed, else by one query); a missing,
 *    unknown or revoked one is answered 401 and the connection closed, so an anonymous client
 *    holds neither a slot nor a body buffer.
 * 2. Admission: at most `limits.open` telemetry requests are open at once, and at most
 *    `limits.openPerAgent` of one agent (from here until the response closes, answered or
 *    aborted); one more is answered 503 `unavailable` with Retry-After
 *    {@link RETRY_AFTER_BUSY_SECONDS}, its body unread, so ingest's memory stays bounded and one
 *    agent cannot take the slots of the others (they back off and spool).
 * 3. A body deadline: the body must arrive within `limits.bodyGraceMs` plus its Content-Length
 *    (or {@link MAX_BODY_BYTES}) at {@link MIN_BODY_BYTES_PER_SECOND}; a slower one is dropped
 *    (connection destroyed, slot freed, a warning logged), the agent resends it from its spool.
 */
export function useTelemetryAdmission(app: NestExpressApplication, limits: AdmissionLimits = DEFAULT_ADMISSION_LIMITS): void {
  const credentials = app.get(AgentCredentialCache);
  const logger = new Logger('TelemetryAdmission');
  const openByAgent = new Map<string, number>();
  let open = 0;

  function refuse(request: Request, response: Response, error: ApiError): void {
    response.setHeader('Connection', 'close');
    sendApiError(request, response, error);
  }

  app.use(TELEMETRY_PATHS, async (request: Request, response: Response, next: NextFunction) => {
    try {
      (request as AgentRequest).agent = await credentials.authenticate(request.header('authorization'));
    } catch (error) {
      if (!(error instanceof ApiError)) return next(error);
      return refuse(request, response, error);
    }
    const { agentId } = (request as AgentRequest).agent;
    const agentOpen = openByAgent.get(agentId) ?? 0;
    if (open >= limits.open || agentOpen >= limits.openPerAgent) {
      const message =
        open >= limits.open
          ? `ingest is at capacity (${limits.open} telemetry requests are open), retry later`
          : `agent ${agentId} has ${limits.openPerAgent} telemetry requests open, retry later`;
      return refuse(request, response, new ApiError(ErrorCode.Unavailable, message, { retryAfterSeconds: RETRY_AFTER_BUSY_SECONDS }));
    }
    open += 1;
    openByAgent.set(agentId, agentOpen + 1);
    const bodyBytes = Number(request.header('content-length')) || MAX_BODY_BYTES;
    const deadline = setTimeout(() => {
      logger.warn(`dropped a telemetry request of agent ${agentId}: its body arrived slower than ${MIN_BODY_BYTES_PER_SECOND} bytes/s`);
      request.destroy();
    }, limits.bodyGraceMs + (bodyBytes / MIN_BODY_BYTES_PER_SECOND) * 1000);
    request.once('end', () => clearTimeout(deadline));
    response.once('close', () => {
      clearTimeout(deadline);
      open -= 1;
      const left = (openByAgent.get(agentId) ?? 1) - 1;
      if (left > 0) openByAgent.set(agentId, left);
      else openByAgent.delete(agentId);
    });
    next();
  });
}
