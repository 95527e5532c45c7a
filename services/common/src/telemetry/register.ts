/**
 * Preloaded with `node --import @tierwise/common/otel dist/main.js` (the services' start
 * scripts). When OpenTelemetry is configured ({@link telemetryConfigured}): loads the SDK,
 * registers OpenTelemetry's ESM loader hook (import-in-the-middle), so that modules imported
 * afterwards (http, express, Nest, pg) can be instrumented, then starts the SDK
 * ({@link startTelemetry}) under the service name `tierwise-<package>` taken from npm's
 * `npm_package_name` (e.g. @tierwise/ingest -> tierwise-ingest). Otherwise it loads nothing
 * and registers no hook: the SDK's modules and the hook's wrapping of every later module would
 * be carried for nothing.
 */
import { register } from 'node:module';
import { telemetryConfigured } from './otel-config.js';

if (telemetryConfigured(process.env)) {
  const { startTelemetry } = await import('./otel-sdk.js');
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const packageName = process.env.npm_package_name ?? 'tierwise-service';
  startTelemetry(packageName.replace(/^@tierwise\//, 'tierwise-'));
}
