/**
 * Whether OpenTelemetry is to be started: an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT,
 * or the per-signal OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / _METRICS_ENDPOINT; OpenTelemetry
 * specification, "OTLP Exporter Configuration") and OTEL_SDK_DISABLED is not `true`.
 * Kept apart from the SDK so that deciding loads none of it.
 */
export function telemetryConfigured(env: NodeJS.ProcessEnv): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT;
  return Boolean(endpoint) && env.OTEL_SDK_DISABLED !== 'true';
}
