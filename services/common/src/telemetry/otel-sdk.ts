import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { NestInstrumentation } from '@opentelemetry/instrumentation-nestjs-core';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';

/** Interval of the metric export, milliseconds (OTEL_METRIC_EXPORT_INTERVAL overrides it). */
const METRIC_EXPORT_INTERVAL_MS = 10_000;

/**
 * Starts OpenTelemetry for a Tierwise service: traces and metrics over OTLP/HTTP protobuf to
 * the endpoint of the standard variables (OTEL_EXPORTER_OTLP_ENDPOINT, or the per-signal
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / _METRICS_ENDPOINT; OpenTelemetry specification,
 * "OTLP Exporter Configuration"), with spans of incoming HTTP requests, Express and Nest
 * handlers and PostgreSQL queries, and W3C trace context propagation.
 *
 * Called only when OpenTelemetry is configured (`telemetryConfigured`, otel-config.ts; the
 * preload register.ts decides), so the local stack and the tests run without a collector.
 *
 * @param serviceName the service.name resource attribute, e.g. `tierwise-ingest`
 *   (OTEL_SERVICE_NAME overrides it).
 * @returns the started SDK (call `shutdown()` to flush).
 */
export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): NodeSDK {
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME || serviceName,
    traceExporter: new OTLPTraceExporter(),
    metricReaders: [
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter(),
        exportIntervalMillis: Number(env.OTEL_METRIC_EXPORT_INTERVAL) || METRIC_EXPORT_INTERVAL_MS,
      }),
    ],
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (request) => request.url === '/healthz' }),
      new ExpressInstrumentation(),
      new NestInstrumentation(),
      new PgInstrumentation({ enhancedDatabaseReporting: false }),
    ],
  });
  sdk.start();
  const shutdown = () => void sdk.shutdown().catch(() => undefined);
  process.once('SIGTERM', shutdown);
  process.once('beforeExit', shutdown);
  return sdk;
}
