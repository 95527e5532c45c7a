package io.tierwise.jobs.telemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import java.io.Serializable;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.configuration.Configuration;

/**
 * OpenTelemetry of the stream jobs themselves: traces over OTLP (the standard OTEL_* variables of
 * the OpenTelemetry specification, "Environment Variable Specification", read from the
 * environment or from the Managed Flink property group, see {@code JobSettings}), and the Flink
 * metrics through Flink's OpenTelemetry metric reporter (flink-metrics-otel, a plugin).
 *
 * <p>One SDK per JVM, started on first use in whichever JVM runs an operator (the MiniCluster's,
 * or each TaskManager's on a cluster); without an endpoint the API's no-op implementation is
 * used, so spans cost nothing. The SDK flushes its spans on JVM exit (autoconfigure's shutdown
 * hook).
 *
 * @param otel OTEL_* settings (e.g. OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318); empty:
 *     telemetry off
 */
public record JobTelemetry(Map<String, String> otel) implements Serializable {
  /** service.name of the jobs' spans and metrics unless OTEL_SERVICE_NAME says otherwise. */
  public static final String SERVICE_NAME = "tierwise-stream-jobs";
  /** The instrumentation scope of the jobs' spans. */
  public static final String SCOPE = "io.tierwise.jobs";
  /** Name of the Flink metric reporter configured by {@link #addMetricReporter}. */
  public static final String REPORTER = "otel";
  private static final Duration DEFAULT_METRIC_INTERVAL = Duration.ofSeconds(10);
  private static OpenTelemetry sdk;

  /** Telemetry off. */
  public static JobTelemetry off() {
    return new JobTelemetry(Map.of());
  }

  /** The OTEL_* entries of {@code settings} (environment or property group). */
  public static JobTelemetry from(Map<String, String> settings) {
    Map<String, String> otel = new HashMap<>();
    settings.forEach((k, v) -> {
      if (k.startsWith("OTEL_") && v != null && !v.isBlank()) {
        otel.put(k, v);
      }
    });
    return new JobTelemetry(Map.copyOf(otel));
  }

  /** True when an OTLP endpoint is configured and OTEL_SDK_DISABLED is not true. */
  public boolean enabled() {
    return !"true".equalsIgnoreCase(otel.get("OTEL_SDK_DISABLED"))
        && (otel.containsKey("OTEL_EXPORTER_OTLP_ENDPOINT") || otel.containsKey("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"));
  }

  /** The jobs' tracer: the SDK's when {@link #enabled()}, else a no-op one. */
  public Tracer tracer() {
    return openTelemetry().getTracer(SCOPE);
  }

  /** The JVM's OpenTelemetry, started from these settings on the first call. */
  public OpenTelemetry openTelemetry() {
    synchronized (JobTelemetry.class) {
      if (sdk == null) {
        sdk = enabled() ? start() : OpenTelemetry.noop();
      }
      return sdk;
    }
  }

  private OpenTelemetry start() {
    Map<String, String> properties = new HashMap<>();
    properties.put("otel.service.name", SERVICE_NAME);
    properties.put("otel.exporter.otlp.protocol", "http/protobuf");
    properties.put("otel.metrics.exporter", "none"); // Flink's reporter exports the metrics
    properties.put("otel.logs.exporter", "none");
    properties.put("otel.span.link.count.limit", String.valueOf(TracedSink.MAX_LINKS));
    otel.forEach((k, v) -> properties.put(k.toLowerCase(Locale.ROOT).replace('_', '.'), v));
    return AutoConfiguredOpenTelemetrySdk.builder()
        .addPropertiesSupplier(() -> properties)
        .build()
        .getOpenTelemetrySdk();
  }

  /**
   * Configures Flink's OpenTelemetry metric reporter (flink-metrics-otel, loaded from the
   * plugins directory FLINK_PLUGINS_DIR by {@link PluginMetricReporterFactory}; on a Flink
   * cluster configure it in the cluster's config.yaml instead) to export every Flink metric over
   * OTLP/HTTP to
   * OTEL_EXPORTER_OTLP_METRICS_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT + /v1/metrics, every
   * OTEL_METRIC_EXPORT_INTERVAL ms (default 10 s). Does nothing when telemetry is off.
   */
  public void addMetricReporter(Configuration conf) {
    if (!enabled()) {
      return;
    }
    String endpoint = otel.get("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT");
    if (endpoint == null) {
      endpoint = otel.getOrDefault("OTEL_EXPORTER_OTLP_ENDPOINT", "").replaceFirst("/+$", "") + "/v1/metrics";
    }
    String prefix = "metrics.reporter." + REPORTER + ".";
    conf.setString(prefix + "factory.class", PluginMetricReporterFactory.class.getName());
    conf.setString(prefix + "exporter.endpoint", endpoint);
    conf.setString(prefix + "exporter.protocol", "HTTP");
    String interval = otel.get("OTEL_METRIC_EXPORT_INTERVAL");
    Duration every = interval == null ? DEFAULT_METRIC_INTERVAL : Duration.ofMillis(Long.parseLong(interval));
    conf.setString(prefix + "interval", every.toMillis() + " ms");
    conf.setString(prefix + "scope.variables.additional", "service.name:"
        + otel.getOrDefault("OTEL_SERVICE_NAME", SERVICE_NAME));
  }
}
