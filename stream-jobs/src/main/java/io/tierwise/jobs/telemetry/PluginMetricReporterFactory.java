package io.tierwise.jobs.telemetry;

import java.util.Iterator;
import java.util.Properties;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.plugin.PluginManager;
import org.apache.flink.core.plugin.PluginUtils;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * Flink's OpenTelemetry metric reporter (flink-metrics-otel) for the embedded MiniCluster, loaded
 * from the plugins directory (FLINK_PLUGINS_DIR) as a Flink cluster loads it. The MiniCluster
 * looks for reporter factories on the class path only (MiniCluster#createMetricRegistry passes no
 * plugin manager), and the reporter cannot sit on the jobs' class path: it bundles an older
 * OpenTelemetry SDK, unrelocated. This factory, found on the class path, asks Flink's plugin
 * manager for the real one, whose own class loader keeps that SDK apart.
 */
public final class PluginMetricReporterFactory implements MetricReporterFactory {
  /** The factory class of flink-metrics-otel. */
  static final String OTEL_FACTORY = "org.apache.flink.metrics.otel.OpenTelemetryMetricReporterFactory";

  /**
   * @throws IllegalStateException when the plugins directory has no flink-metrics-otel
   */
  @Override
  public MetricReporter createMetricReporter(Properties properties) {
    PluginManager plugins = PluginUtils.createPluginManagerFromRootFolder(new Configuration());
    for (Iterator<MetricReporterFactory> it = plugins.load(MetricReporterFactory.class); it.hasNext(); ) {
      MetricReporterFactory factory = it.next();
      if (factory.getClass().getName().equals(OTEL_FACTORY)) {
        return factory.createMetricReporter(properties);
      }
    }
    throw new IllegalStateException("no " + OTEL_FACTORY + " in the Flink plugins directory (FLINK_PLUGINS_DIR="
        + System.getenv("FLINK_PLUGINS_DIR") + "; the build puts it in stream-jobs/target/plugins)");
  }
}
