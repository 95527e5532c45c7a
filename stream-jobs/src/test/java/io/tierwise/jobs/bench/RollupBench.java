package io.tierwise.jobs.bench;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.tierwise.jobs.ingest.IngestRecordDeserializer;
import io.tierwise.jobs.metrics.IntervalMetrics;
import io.tierwise.jobs.metrics.MetricsRollupJob;
import io.tierwise.jobs.metrics.OtlpMetricsParser;
import io.tierwise.jobs.sink.PostgresSinks;
import io.tierwise.jobs.telemetry.JobTelemetry;
import io.tierwise.jobs.testing.AgentTelemetry;
import io.tierwise.proto.v1.IngestRecord;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Throughput of the metrics/rollup pipeline ({@link MetricsRollupJob}: Kafka source, OTLP parse,
 * volume_metrics_10s/io stats/block sizes and the 10 s/1 min/1 h/1 d rollups of every scope, JDBC
 * upserts into PostgreSQL) in an embedded MiniCluster, in metric points (OTLP data points) per
 * second and per core, at parallelism 1 and 2. Run by bench/analytics/rollup-throughput.sh.
 *
 * <p>Method: agent-shaped OTLP requests (AgentTelemetry: 15 metrics, ~90 data points per volume
 * interval, with front-end latency histograms) are written to a fresh topic; for each parallelism
 * a bounded job reads the first {@code n} records, then another reads {@code 5n}; the rate is the
 * difference in points over the difference in wall time, so job start-up and shutdown cancel out.
 *
 * <p>Also {@code produce <topic> <tenant> <volumes> <intervals>}: writes telemetry for a tenant
 * to a topic (used to feed a job on a Flink cluster, docs/flink-cluster.md).
 */
public final class RollupBench {
  private RollupBench() {}

  /** Args: {@code run <records>} or {@code produce <topic> <tenant> <volumes> <intervals>}; env as infra/local/env.sh. */
  public static void main(String[] args) throws Exception {
    String brokers = System.getenv("TIERWISE_KAFKA_BROKERS");
    String jdbcUrl = System.getenv("TIERWISE_JDBC_URL");
    if (brokers == null || jdbcUrl == null) {
      throw new IllegalArgumentException("TIERWISE_KAFKA_BROKERS and TIERWISE_JDBC_URL must be set (source infra/local/env.sh)");
    }
    if (args.length == 5 && args[0].equals("produce")) {
      long points = produce(brokers, args[1], args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]));
      System.out.printf("produced %s volumes x %s intervals (%d metric points) to %s for tenant %s%n",
          args[3], args[4], points, args[1], args[2]);
      return;
    }
    if (args.length != 2 || !args[0].equals("run")) {
      throw new IllegalArgumentException("usage: RollupBench run <records> | produce <topic> <tenant> <volumes> <intervals>");
    }
    int n = Integer.parseInt(args[1]);
    String topic = "bench-rollup-" + UUID.randomUUID().toString().substring(0, 8) + ".metrics";
    String tenant = UUID.randomUUID().toString();
    createTopic(brokers, topic);
    long points = produce(brokers, topic, tenant, 100, 5 * n / 100);
    double pointsPerRecord = (double) points / (5L * n / 100 * 100);
    System.out.printf("rollup bench: %d records, %d metric points (%.1f per volume interval) in %s%n",
        5 * n, points, pointsPerRecord, topic);
    try {
      for (int parallelism : new int[] {1, 2}) {
        run(brokers, jdbcUrl, topic, n / 10, parallelism); // warm-up (JIT, class loading)
        double small = run(brokers, jdbcUrl, topic, n, parallelism);
        double large = run(brokers, jdbcUrl, topic, 5 * n, parallelism);
        double rate = 4.0 * n * pointsPerRecord / (large - small);
        System.out.printf("parallelism %d: %d records %.1f s, %d records %.1f s -> %.0f metric points/s, %.0f per core"
            + " (%.0f volume intervals/s)%n", parallelism, n, small, 5 * n, large, rate, rate / parallelism,
            rate / pointsPerRecord);
      }
    } finally {
      deleteRows(jdbcUrl, tenant);
      try (Admin admin = admin(brokers)) {
        admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
      }
    }
  }

  /** Runs the pipeline over the first {@code records} records of the topic; returns the wall time, s. */
  private static double run(String brokers, String jdbcUrl, String topic, int records, int parallelism)
      throws Exception {
    Configuration conf = new Configuration();
    conf.set(PipelineOptions.GENERIC_TYPES, false);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(parallelism);
    KafkaSource<IntervalMetrics> source = KafkaSource.<IntervalMetrics>builder()
        .setBootstrapServers(brokers).setTopics(topic).setGroupId("bench-" + UUID.randomUUID())
        .setStartingOffsets(OffsetsInitializer.earliest())
        .setBounded(OffsetsInitializer.offsets(evenSplit(topic, records)))
        .setDeserializer(new IngestRecordDeserializer<>(new OtlpMetricsParser(),
            Types.POJO(IntervalMetrics.class)))
        .build();
    PostgresSinks pg = new PostgresSinks(jdbcUrl);
    new MetricsRollupJob(source, pg.volumeMetrics(JobTelemetry.off()), pg.volumeIoStats(), pg.blockSizes(),
        pg.metricRollups(), Duration.ofMillis(500), Duration.ofMillis(500),
        Duration.ofHours(1)).addTo(env);
    long t0 = System.nanoTime();
    env.execute("rollup bench p" + parallelism);
    return (System.nanoTime() - t0) / 1e9;
  }

  /** End offsets reading {@code records} records spread evenly over the topic's 2 partitions. */
  private static Map<TopicPartition, Long> evenSplit(String topic, int records) {
    return Map.of(new TopicPartition(topic, 0), (long) records / 2,
        new TopicPartition(topic, 1), (long) records - records / 2);
  }

  /**
   * Writes {@code volumes} x {@code intervals} agent-shaped requests (10 s intervals ending now),
   * alternately to partitions 0 and 1; returns the number of OTLP data points written.
   */
  static long produce(String brokers, String topic, String tenant, int volumes, int intervals) throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
    long t0 = (Instant.now().getEpochSecond() / 10 - intervals) * 10_000_000_000L;
    long points = 0;
    int k = 0;
    try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
      for (int n = 0; n < intervals; n++) {
        for (int v = 0; v < volumes; v++) {
          ExportMetricsServiceRequest request = AgentTelemetry.request("cluster-" + v % 4, "host-" + v % 16,
              String.format("%016x", v), AgentTelemetry.busyInterval(t0 + n * 10_000_000_000L, new Random(31L * n + v)));
          points += dataPoints(request);
          IngestRecord record = IngestRecord.newBuilder().setTenantId(tenant).setBatchId(UUID.randomUUID().toString())
              .setPayload(request.toByteString()).build();
          producer.send(new ProducerRecord<>(topic, k++ % 2, tenant + "/" + v, record.toByteArray()));
        }
      }
      producer.flush();
    }
    return points;
  }

  private static long dataPoints(ExportMetricsServiceRequest request) {
    long n = 0;
    for (Metric m : request.getResourceMetrics(0).getScopeMetrics(0).getMetricsList()) {
      n += m.getSum().getDataPointsCount() + m.getGauge().getDataPointsCount() + m.getHistogram().getDataPointsCount();
    }
    return n;
  }

  private static void createTopic(String brokers, String topic) throws Exception {
    try (Admin admin = admin(brokers)) {
      admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
    }
  }

  private static Admin admin(String brokers) {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
    return Admin.create(p);
  }

  private static void deleteRows(String jdbcUrl, String tenant) throws Exception {
    try (Connection c = DriverManager.getConnection(jdbcUrl)) {
      for (String table : List.of("metric_rollups", "volume_metrics_10s", "volume_io_stats", "volume_block_sizes")) {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table + " WHERE tenant_id = CAST(? AS uuid)")) {
          ps.setString(1, tenant);
          ps.executeUpdate();
        }
      }
    }
  }
}
