package io.tierwise.jobs.ingest;

import io.tierwise.jobs.telemetry.JobTelemetry;
import java.util.Collection;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/** Kafka sources of the telemetry topics, and a start-up check that the topics exist. */
public final class KafkaSources {
  private static final long TOPIC_CHECK_SECONDS = 30;

  private KafkaSources() {}

  /**
   * A source of one telemetry topic: IngestRecord values parsed by {@code parser}; starts at the
   * consumer group's committed offsets (the earliest offset where the group has none) and
   * commits offsets on every completed checkpoint.
   *
   * @param brokers bootstrap servers
   * @param topic topic name
   * @param groupId consumer group id
   * @param parser payload parser
   * @param type Flink type of the events
   * @param security Kafka client security properties ({@link KafkaSecurity}), may be empty
   * @param telemetry where the consume spans go
   */
  // flink-connector-kafka 5.0's only "committed, else earliest" initializer takes Kafka's
  // OffsetResetStrategy, deprecated in kafka-clients 4.
  @SuppressWarnings("deprecation")
  public static <T> KafkaSource<T> telemetry(String brokers, String topic, String groupId, PayloadParser<T> parser,
      TypeInformation<T> type, Map<String, String> security, JobTelemetry telemetry) {
    var builder = KafkaSource.<T>builder();
    security.forEach(builder::setProperty);
    return builder
        .setBootstrapServers(brokers)
        .setTopics(topic)
        .setGroupId(groupId)
        .setClientIdPrefix(groupId)
        .setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))
        .setDeserializer(new IngestRecordDeserializer<>(parser, type, telemetry))
        .setProperty("commit.offsets.on.checkpoint", "true")
        .setProperty("partition.discovery.interval.ms", "10000")
        .build();
  }

  /**
   * Checks that the broker answers and the topics exist.
   *
   * @throws IllegalStateException naming the unreachable broker or the missing topics
   */
  public static void requireTopics(String brokers, Collection<String> topics) {
    requireTopics(brokers, Map.of(), topics);
  }

  /**
   * Checks that the broker answers, with these security properties, and the topics exist.
   *
   * @throws IllegalStateException naming the unreachable broker or the missing topics
   */
  public static void requireTopics(String brokers, Map<String, String> security, Collection<String> topics) {
    Properties props = new Properties();
    props.putAll(security);
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TimeUnit.SECONDS.toMillis(TOPIC_CHECK_SECONDS));
    try (Admin admin = Admin.create(props)) {
      Set<String> existing = admin.listTopics().names().get(TOPIC_CHECK_SECONDS, TimeUnit.SECONDS);
      var missing = topics.stream().filter(t -> !existing.contains(t)).toList();
      if (!missing.isEmpty()) {
        throw new IllegalStateException("Kafka topics " + missing + " do not exist on " + brokers
            + " (infra/local/kafka.sh start creates them)");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while checking Kafka topics", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("Kafka at " + brokers + ": " + e.getCause().getMessage(), e);
    } catch (TimeoutException e) {
      throw new IllegalStateException("Kafka at " + brokers + " did not answer within " + TOPIC_CHECK_SECONDS + " s", e);
    }
  }
}
