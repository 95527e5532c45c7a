package io.tierwise.jobs;

import com.amazonaws.services.kinesisanalytics.runtime.KinesisAnalyticsRuntime;
import io.tierwise.jobs.ingest.KafkaSecurity;
import io.tierwise.jobs.sink.JdbcUrls;
import io.tierwise.jobs.telemetry.JobTelemetry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Where the jobs read and write, and their timings. {@link #load} reads the variables of
 * infra/local/env.sh (every one: docs/deployment.md), or, on Amazon Managed Service for Apache
 * Flink, the runtime property group {@value #PROPERTY_GROUP} with the same names; tests build
 * their own (other topics, group ids, directories).
 *
 * @param kafkaBrokers bootstrap servers, e.g. 127.0.0.1:29592
 * @param jdbcUrl PostgreSQL JDBC URL with the tierwise_jobs role
 * @param metricsTopic the metrics topic (contract: telemetry.metrics.v1)
 * @param refsTopic the sampled-references topic (contract: telemetry.refs.v1)
 * @param consumerGroupPrefix Kafka consumer group prefix; groups are prefix + ".metrics" / ".refs"
 * @param checkpointDir local directory for checkpoints when running embedded
 * @param checkpointInterval checkpoint (and Kafka offset commit) interval
 * @param flushDelay results are written at most this long after the records that changed them
 * @param coarseWritePeriod how often an open rollup window of 1 min or longer, a volume's
 *     block-size totals, and a volume's or shared tier's working sets, curves and recommendation
 *     are rewritten (they change at every interval; writing each change would cost PostgreSQL a
 *     row version per interval: docs/rollups.md)
 * @param kafkaSecurity Kafka client security properties ({@link KafkaSecurity}); empty: PLAINTEXT
 * @param telemetry the jobs' own traces and Flink metrics over OTLP ({@link JobTelemetry})
 */
public record JobSettings(String kafkaBrokers, String jdbcUrl, String metricsTopic, String refsTopic,
    String consumerGroupPrefix, Path checkpointDir, Duration checkpointInterval, Duration flushDelay,
    Duration coarseWritePeriod, Map<String, String> kafkaSecurity, JobTelemetry telemetry) {
  /** The Managed Flink runtime property group holding the settings (keys as the variables). */
  public static final String PROPERTY_GROUP = "tierwise";

  /**
   * Settings with a PLAINTEXT Kafka and telemetry off (tests): every result, coarse windows too,
   * written within {@code flushDelay}.
   */
  public JobSettings(String kafkaBrokers, String jdbcUrl, String metricsTopic, String refsTopic,
      String consumerGroupPrefix, Path checkpointDir, Duration checkpointInterval, Duration flushDelay) {
    this(kafkaBrokers, jdbcUrl, metricsTopic, refsTopic, consumerGroupPrefix, checkpointDir, checkpointInterval,
        flushDelay, flushDelay, Map.of(), JobTelemetry.off());
  }

  /**
   * Version of the jobs' state (bump it whenever an operator's state format changes, e.g.
   * ShardsFixedRate's serialized form). Checkpoints and Kafka consumer groups are kept per
   * version, so a new version does not try to restore state it cannot read: it starts with empty
   * state and a new consumer group, which reads the topics from their earliest retained record
   * and so rebuilds every total, working set and miss ratio curve.
   */
  public static final int STATE_VERSION = 10;
  /**
   * Key groups of the keyed state (Flink's max parallelism), set explicitly so that a savepoint
   * restores at any parallelism up to it; Flink's own default for parallelism up to 85, so
   * checkpoints taken before it was set restore unchanged.
   */
  public static final int MAX_PARALLELISM = 128;
  /** The longest a rollup window stays open behind its scope's latest interval ({@code RollupFunction}). */
  public static final Duration ROLLUP_LATENESS = Duration.ofHours(1);
  /** How long reference batches wait for a missing sequence number. */
  public static final Duration SEQUENCE_GAP_TIMEOUT = Duration.ofSeconds(30);
  /**
   * How long a shared tier's references wait for a volume that sends no batch: longer than a live
   * volume goes without one. An agent ends a volume's batch at 10,000 references or when its first
   * I/O is a minute old and sends it at the close of the next 10-s interval (proto/METRICS.md),
   * and waits at most 30 s before a retry (edge-agent/src/export/retry_delay.hpp).
   */
  public static final Duration SHARED_TIER_IDLE_TIMEOUT = Duration.ofMinutes(2);
  /** How many reference batches of one volume may wait for a missing one. */
  public static final int MAX_PENDING_BATCHES = 64;

  /**
   * The settings of this deployment: the environment, overridden by the Managed Service for
   * Apache Flink runtime property group {@value #PROPERTY_GROUP} when the application has one
   * (aws-kinesisanalytics-runtime reads /etc/flink/application_properties.json; elsewhere there
   * is none and the environment alone counts), with the secrets it names by ARN read from AWS
   * Secrets Manager ({@link ManagedSecrets}).
   *
   * @throws IllegalArgumentException naming a missing or invalid setting
   */
  public static JobSettings load(Map<String, String> env) {
    try {
      return load(env, KinesisAnalyticsRuntime.getApplicationProperties());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the Managed Flink application properties", e);
    }
  }

  /** {@link #load} with the runtime property groups given (group id -> properties). */
  static JobSettings load(Map<String, String> env, Map<String, Properties> propertyGroups) {
    Map<String, String> settings = new HashMap<>(env);
    Properties group = propertyGroups.get(PROPERTY_GROUP);
    if (group != null) {
      group.stringPropertyNames().forEach(k -> settings.put(k, group.getProperty(k)));
    }
    return fromEnvironment(ManagedSecrets.resolve(settings));
  }

  /**
   * Settings from TIERWISE_KAFKA_BROKERS, TIERWISE_JDBC_URL (both required; PGPASSWORD and
   * PGSSLMODE are added to the URL as {@code password} and {@code sslmode} when it has none),
   * the Kafka security variables of {@link KafkaSecurity}, the OTEL_* variables of
   * {@link JobTelemetry}, and
   * TIERWISE_STATE_DIR (checkpoints under its flink/checkpoints/v{@value #STATE_VERSION}; default
   * java.io.tmpdir), TIERWISE_CHECKPOINT_INTERVAL_SECONDS (default {@link #CHECKPOINT_INTERVAL}),
   * TIERWISE_COARSE_WRITE_SECONDS (default {@link #COARSE_WRITE_PERIOD});
   * consumer groups tierwise-stream-jobs.v{@value #STATE_VERSION}.{metrics,refs}.
   *
   * @throws IllegalArgumentException naming a missing or invalid variable
   */
  public static JobSettings fromEnvironment(Map<String, String> env) {
    String stateDir = env.getOrDefault("TIERWISE_STATE_DIR", System.getProperty("java.io.tmpdir") + "/tierwise");
    return new JobSettings(required(env, "TIERWISE_KAFKA_BROKERS"), JdbcUrls.withPgEnvironment(required(env, "TIERWISE_JDBC_URL"), env),
        "telemetry.metrics.v1", "telemetry.refs.v1", "tierwise-stream-jobs.v" + STATE_VERSION,
        Paths.get(stateDir, "flink", "checkpoints", "v" + STATE_VERSION).toAbsolutePath(),
        seconds(env, "TIERWISE_CHECKPOINT_INTERVAL_SECONDS", CHECKPOINT_INTERVAL), Duration.ofSeconds(1),
        seconds(env, "TIERWISE_COARSE_WRITE_SECONDS", COARSE_WRITE_PERIOD), KafkaSecurity.properties(env),
        JobTelemetry.from(env));
  }

  /**
   * The checkpoint interval when TIERWISE_CHECKPOINT_INTERVAL_SECONDS does not set it. A
   * checkpoint of the heap state backend snapshots every volume's state (its cost at fleet scale:
   * docs/fleet-scale.md); the sinks are idempotent upserts, so a longer interval costs only a
   * longer replay from Kafka after a failure and a later offset commit.
   */
  public static final Duration CHECKPOINT_INTERVAL = Duration.ofSeconds(60);

  /**
   * How often open coarse rollup windows, block-size totals, working sets, curves and
   * recommendations are rewritten when TIERWISE_COARSE_WRITE_SECONDS does not set it: a 1 h chart
   * point or a working set lags by at most this much.
   */
  public static final Duration COARSE_WRITE_PERIOD = Duration.ofSeconds(60);

  /** The variable {@code name} as whole seconds >= 1, or {@code otherwise} when it is unset. */
  private static Duration seconds(Map<String, String> env, String name, Duration otherwise) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      return otherwise;
    }
    try {
      long seconds = Long.parseLong(value.trim());
      if (seconds >= 1) {
        return Duration.ofSeconds(seconds);
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new IllegalArgumentException(name + " '" + value + "' is not a whole number of seconds >= 1");
  }

  private static String required(Map<String, String> env, String name) {
    String v = env.get(name);
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException(name + " is not set (source infra/local/env.sh)");
    }
    return v;
  }
}
