import type { Server } from 'node:http';
import { ConsoleLogger, type LogLevel, StandardSchemaValidationPipe, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Application } from 'express';
import { type Env, type EnvError, type EnvName, loadEnv } from '../config/env.js';
import { ERROR_DOCS_PATH, serveErrorDocs } from '../errors/error-docs.js';
import { ErrorFilter } from '../errors/error.filter.js';
import { requestIdMiddleware } from './request-id.middleware.js';
import { type RequestLogMode, requestLogMiddleware } from './request-log.middleware.js';

/** Address the local stack's servers and the tests bind to (services: TIERWISE_BIND_ADDRESS, same default). */
export const BIND_ADDRESS = '127.0.0.1';

/**
 * Milliseconds a client has to send a request's headers (Node's `server.headersTimeout`, default
 * 60 s): a connection that trickles them is closed (408) before any route sees it.
 */
export const HEADERS_TIMEOUT_MS = 10_000;

/**
 * Milliseconds a client has to send a whole request, headers and body (Node's
 * `server.requestTimeout`, default 300 s): bounds what a slow client can hold. Ingest also bounds
 * each admitted telemetry body by a minimum rate (docs/security.md "Slow clients").
 */
export const REQUEST_TIMEOUT_MS = 120_000;

export interface ServiceAppOptions {
  /** Register Nest's JSON/urlencoded body parsers (default true; ingest registers its own raw parser). */
  bodyParser?: boolean;
  /** Levels to log (default all but verbose/debug); logs are JSON lines on stdout. */
  logLevels?: LogLevel[];
  /** Which finished requests get a log line (default `every`, {@link RequestLogMode}). */
  requestLog?: RequestLogMode;
}

/**
 * Creates a Nest application with the behaviour every Tierwise service shares: JSON logs,
 * x-request-id on every request and answer, a log line per request (or per unusual one,
 * `requestLog`), zod (Standard Schema) validation of parameters declared as `@Query({ schema })` / `@Param(name, { schema })`, and
 * header and request read timeouts ({@link HEADERS_TIMEOUT_MS}, {@link REQUEST_TIMEOUT_MS}),
 * error bodies `{code, message, request_id, doc_url}` for every exception (including unknown routes and
 * body-parser errors), and the error-code reference doc_url points to (GET /docs/errors).
 * Middleware added here runs before any body parser registered later.
 *
 * @throws EnvError when a TIERWISE_* variable the module needs is missing or malformed.
 */
export async function createServiceApp(module: Type<unknown>, options: ServiceAppOptions = {}): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(module, {
    logger: new ConsoleLogger({ json: true, logLevels: options.logLevels ?? ['fatal', 'error', 'warn', 'log'] }),
    bodyParser: options.bodyParser ?? true,
    abortOnError: false,
  });
  app.disable('x-powered-by');
  const server = app.getHttpServer() as Server;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  app.use(requestIdMiddleware, requestLogMiddleware(options.requestLog));
  (app.getHttpAdapter().getInstance() as Application).get(ERROR_DOCS_PATH, serveErrorDocs);
  app.useGlobalFilters(new ErrorFilter());
  app.useGlobalPipes(new StandardSchemaValidationPipe());
  app.enableShutdownHooks();
  return app;
}

/** What `main.ts` of a service tells {@link runService}. */
export interface RunServiceOptions<K extends EnvName> extends ServiceAppOptions {
  /** The TIERWISE_* variables the service needs (checked before anything starts). */
  env: readonly K[];
  /** The variable holding the port to listen on. */
  port: K & ('TIERWISE_API_PORT' | 'TIERWISE_INGEST_PORT');
  /** Adds to the application before it listens (body parsers, OpenAPI document). */
  configure?: (app: NestExpressApplication) => void | Promise<void>;
}

/**
 * `main.ts` of a service: checks the environment (a problem is printed alone, exit 1), creates
 * the app, lets `configure` add to it, and listens on TIERWISE_BIND_ADDRESS (default 127.0.0.1):<port>.
 */
export async function runService<K extends EnvName>(module: Type<unknown>, options: RunServiceOptions<K>): Promise<void> {
  let env: Env<K | 'TIERWISE_BIND_ADDRESS'>;
  try {
    env = loadEnv([...options.env, 'TIERWISE_BIND_ADDRESS']);
  } catch (error) {
    process.stderr.write(`${(error as EnvError).message}\n`);
    process.exit(1);
  }
  const app = await createServiceApp(module, options);
  await options.configure?.(app);
  await app.listen(env[options.port] as number, env.TIERWISE_BIND_ADDRESS as string);
}
