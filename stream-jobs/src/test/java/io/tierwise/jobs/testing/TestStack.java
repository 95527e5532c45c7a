package io.tierwise.jobs.testing;

import static org.assertj.core.api.Assertions.fail;

import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Assumptions;

/**
 * The real Kafka and PostgreSQL of {@code TIERWISE_PROFILE=test} as the MiniCluster tests use
 * them: env TIERWISE_KAFKA_BROKERS, TIERWISE_JDBC_URL (tierwise_jobs) and TIERWISE_PG_OWNER_URL.
 * Missing variables abort the test, or fail it under CI.
 */
public record TestStack(String brokers, String jdbcUrl, String ownerJdbcUrl) {
  /** The stack from the environment; aborts (fails under CI) when a variable is missing. */
  public static TestStack fromEnvironment() {
    String brokers = System.getenv("TIERWISE_KAFKA_BROKERS");
    String jdbcUrl = System.getenv("TIERWISE_JDBC_URL");
    String ownerUrl = System.getenv("TIERWISE_PG_OWNER_URL");
    if (brokers == null || jdbcUrl == null || ownerUrl == null) {
      String why = "TIERWISE_KAFKA_BROKERS, TIERWISE_JDBC_URL and TIERWISE_PG_OWNER_URL must be set"
          + " (TIERWISE_PROFILE=test: source infra/local/env.sh, start infra/local/postgres.sh and kafka.sh)";
      if (Repo.isCi()) {
        fail(why);
      }
      Assumptions.abort(why);
    }
    URI u = URI.create(ownerUrl); // postgres://user@host:port/db
    return new TestStack(brokers, jdbcUrl,
        "jdbc:postgresql://" + u.getHost() + ":" + u.getPort() + u.getPath() + "?user=" + u.getUserInfo());
  }

  /** A producer with acks=all. */
  public KafkaProducer<String, byte[]> producer() {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    // One request in flight: a retried batch cannot be overtaken (no OUT_OF_ORDER_SEQUENCE_NUMBER).
    p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
    return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
  }

  /**
   * Sends {@code records} with {@link #producer()} and waits for each one's acknowledgement.
   *
   * @throws java.util.concurrent.ExecutionException naming the first record Kafka did not take
   *     (a send that fails would otherwise only show as rows that never come)
   */
  public void send(List<ProducerRecord<String, byte[]>> records) throws Exception {
    try (KafkaProducer<String, byte[]> producer = producer()) {
      List<Future<RecordMetadata>> acks = new ArrayList<>();
      for (ProducerRecord<String, byte[]> r : records) {
        acks.add(producer.send(r));
      }
      for (Future<RecordMetadata> ack : acks) {
        ack.get(60, TimeUnit.SECONDS);
      }
    }
  }

  /** An admin client. */
  public Admin admin() {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
    return Admin.create(p);
  }

  /**
   * Creates topics {@code prefix}.metrics and {@code prefix}.refs with {@code partitions} each and
   * waits until every partition has a leader: an idempotent producer's first send to a partition
   * without one fails NOT_LEADER_OR_FOLLOWER, and its retries can then be refused
   * OUT_OF_ORDER_SEQUENCE_NUMBER until the send times out.
   */
  public void createTopics(String prefix, int partitions) throws Exception {
    List<String> topics = List.of(prefix + ".metrics", prefix + ".refs");
    try (Admin admin = admin()) {
      admin.createTopics(topics.stream().map(t -> new NewTopic(t, partitions, (short) 1)).toList())
          .all().get(30, TimeUnit.SECONDS);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!admin.describeTopics(topics).allTopicNames().get(30, TimeUnit.SECONDS).values().stream()
          .allMatch(d -> d.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty()))) {
        if (System.nanoTime() > deadline) {
          fail("topics " + topics + " have a partition without a leader after 30 s");
        }
        Thread.sleep(100);
      }
    }
  }

  /** Deletes the topics of {@link #createTopics} and the consumer groups named {@code prefix}.*. */
  public void deleteTopicsAndGroups(String prefix) throws Exception {
    try (Admin admin = admin()) {
      admin.deleteTopics(List.of(prefix + ".metrics", prefix + ".refs")).all().get(30, TimeUnit.SECONDS);
      List<String> groups = admin.listGroups(ListGroupsOptions.forConsumerGroups()).all()
          .get(30, TimeUnit.SECONDS).stream().map(g -> g.groupId()).filter(g -> g.startsWith(prefix + ".")).toList();
      admin.deleteConsumerGroups(groups).all().get(30, TimeUnit.SECONDS);
    }
  }

  /** Inserts a tenant named {@code name} (as tierwise_owner); returns its id. */
  public String newTenant(String name) throws SQLException {
    return (String) ownerRows("INSERT INTO tenants (name) VALUES (?) RETURNING id::text", name).get(0).get("id");
  }

  /** Runs {@code sql} as tierwise_jobs with string parameters; the rows as column label -> value, in order. */
  public List<Map<String, Object>> rows(String sql, String... params) throws SQLException {
    return rows(jdbcUrl, sql, params);
  }

  /**
   * Polls {@code sql} (as tierwise_jobs; one row, one numeric column) every 200 ms until it gives
   * {@code expected}; fails naming the query and the last value after {@code timeout}.
   */
  public void awaitValue(String sql, long expected, Duration timeout, String... params) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    long seen = -1;
    while (System.nanoTime() < deadline) {
      seen = ((Number) rows(sql, params).get(0).values().iterator().next()).longValue();
      if (seen == expected) {
        return;
      }
      Thread.sleep(200);
    }
    fail("after " + timeout.toSeconds() + " s, " + sql + " gives " + seen + ", expected " + expected);
  }

  /** Runs {@code sql} as tierwise_owner with string parameters. */
  public List<Map<String, Object>> ownerRows(String sql, String... params) throws SQLException {
    return rows(ownerJdbcUrl, sql, params);
  }

  private static List<Map<String, Object>> rows(String url, String sql, String... params) throws SQLException {
    try (Connection c = DriverManager.getConnection(url); PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setString(i + 1, params[i]);
      }
      List<Map<String, Object>> rows = new ArrayList<>();
      if (!ps.execute()) {
        return rows;
      }
      try (ResultSet rs = ps.getResultSet()) {
        while (rs.next()) {
          Map<String, Object> row = new LinkedHashMap<>();
          for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
            row.put(rs.getMetaData().getColumnLabel(i), rs.getObject(i));
          }
          rows.add(row);
        }
      }
      return rows;
    }
  }
}
