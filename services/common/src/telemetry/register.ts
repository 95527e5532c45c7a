/**
 * Preloaded with `node --import @tierwise/common/otel dist/main.js` (the services' start
 * scripts): registers OpenTelemetry's ESM loader hook (import-in-the-middle), so that modules
 * imported afterwards (http, express, Nest, pg) can be instrumented, then starts the SDK
 * ({@link startTelemetry}) under the service name `tierwise-<package>` taken from npm's
 * `npm_package_name` (e.g. @tierwise/ingest -> tierwise-ingest).
 */
import { register } from 'node:module';
import { startTelemetry } from './otel-sdk.js';

register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
const packageName = process.env.npm_package_name ?? 'tierwise-service';
startTelemetry(packageName.replace(/^@tierwise\//, 'tierwise-'));
