package io.tierwise.jobs;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Map;

/**
 * Where the jobs read and write, and their timings. {@link #fromEnvironment} reads the variables
 * of infra/local/env.sh; tests build their own (other topics, group ids, directories).
 *
 * @param kafkaBrokers bootstrap servers, e.g. 127.0.0.1:59092
 * @param jdbcUrl PostgreSQL JDBC URL with the tierwise_jobs role
 * @param metricsTopic the metrics topic (contract: telemetry.metrics.v1)
 * @param refsTopic the sampled-references topic (contract: telemetry.refs.v1)
 * @param consumerGroupPrefix Kafka consumer group prefix; groups are prefix + ".metrics" / ".refs"
 * @param checkpointDir local directory for checkpoints when running embedded
 * @param checkpointInterval checkpoint (and Kafka offset commit) interval
 * @param flushDelay results are written at most this long after the records that changed them
 */
public record JobSettings(String kafkaBrokers, String jdbcUrl, String metricsTopic, String refsTopic,
    String consumerGroupPrefix, Path checkpointDir, Duration checkpointInterval, Duration flushDelay) {
  /**
   * Version of the jobs' state (bump it whenever an operator's state format changes, e.g.
   * ShardsFixedRate's serialized form). Checkpoints and Kafka consumer groups are kept per
   * version, so a new version does not try to restore state it cannot read: it starts with empty
   * state and a new consumer group, which reads the topics from their earliest retained record
   * and so rebuilds every total, working set and miss ratio curve.
   */
  public static final int STATE_VERSION = 4;
  /** How long an interval aggregate stays open to late records of the same interval. */
  public static final Duration INTERVAL_RETENTION = Duration.ofHours(1);
  /** How long reference batches wait for a missing sequence number. */
  public static final Duration SEQUENCE_GAP_TIMEOUT = Duration.ofSeconds(30);
  /** How many reference batches of one volume may wait for a missing one. */
  public static final int MAX_PENDING_BATCHES = 64;

  /**
   * Settings from TIERWISE_KAFKA_BROKERS, TIERWISE_JDBC_URL (both required) and
   * TIERWISE_STATE_DIR (checkpoints under its flink/checkpoints/v{@value #STATE_VERSION}; default
   * java.io.tmpdir); consumer groups tierwise-stream-jobs.v{@value #STATE_VERSION}.{metrics,refs}.
   *
   * @throws IllegalArgumentException naming a missing variable
   */
  public static JobSettings fromEnvironment(Map<String, String> env) {
    String stateDir = env.getOrDefault("TIERWISE_STATE_DIR", System.getProperty("java.io.tmpdir") + "/tierwise");
    return new JobSettings(required(env, "TIERWISE_KAFKA_BROKERS"), required(env, "TIERWISE_JDBC_URL"),
        "telemetry.metrics.v1", "telemetry.refs.v1", "tierwise-stream-jobs.v" + STATE_VERSION,
        Paths.get(stateDir, "flink", "checkpoints", "v" + STATE_VERSION).toAbsolutePath(), Duration.ofSeconds(10),
        Duration.ofSeconds(1));
  }

  private static String required(Map<String, String> env, String name) {
    String v = env.get(name);
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException(name + " is not set (source infra/local/env.sh)");
    }
    return v;
  }
}
