package io.tierwise.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.tierwise.jobs.testing.AgentTelemetry;
import io.tierwise.jobs.testing.TestStack;
import io.tierwise.proto.v1.IngestRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Exactly-once into PostgreSQL (issue 5): the whole job (TierwiseJobs.start, embedded
 * MiniCluster, real Kafka and PostgreSQL of the test profile) is cancelled mid-stream after it has
 * written rows newer than its last checkpoint, restarted from that retained checkpoint (the
 * production restart path, {@link LocalCheckpoints}), and fed the rest of the stream. Every row of
 * metric_rollups, volume_metrics_10s, volume_io_stats and volume_block_sizes must then equal the
 * rows of a run over the same telemetry without the kill (the same records under another tenant).
 */
class StreamJobsRestartTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(180);
  /** Long enough that the kill falls between two checkpoints on a loaded machine. */
  private static final Duration CHECKPOINT_INTERVAL = Duration.ofSeconds(10);
  private static final int VOLUMES = 4;
  private static final int INTERVALS = 36;
  private static final String[] TABLES_COMPARED = {
    "metric_rollups", "volume_metrics_10s", "volume_io_stats", "volume_block_sizes"};

  private static TestStack stack;
  private static String runId;
  private static final List<String> tenants = new ArrayList<>();
  private static final List<Path> checkpointDirs = new ArrayList<>();

  @BeforeAll
  static void setUp() {
    stack = TestStack.fromEnvironment();
    runId = "restart-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @AfterAll
  static void cleanUp() throws Exception {
    if (stack == null) {
      return; // aborted in setUp: no test profile, nothing was created
    }
    for (String prefix : List.of(runId + "-ref", runId + "-kill")) {
      stack.deleteTopicsAndGroups(prefix);
    }
    for (Path dir : checkpointDirs) {
      try (var tree = Files.walk(dir)) {
        for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
    for (String tenant : tenants) {
      for (String table : TABLES_COMPARED) {
        stack.ownerRows("DELETE FROM " + table + " WHERE tenant_id = CAST(? AS uuid)", tenant);
      }
      stack.ownerRows("DELETE FROM tenants WHERE id = CAST(? AS uuid)", tenant);
    }
  }

  @Test
  void aJobKilledMidStreamAndRestartedFromItsCheckpointWritesTheRowsOfARunWithoutTheKill() throws Exception {
    List<List<AgentTelemetry.Interval>> parts = List.of(telemetry(0, 12), telemetry(12, 24), telemetry(24, INTERVALS));

    String reference = stack.newTenant(runId + " reference");
    tenants.add(reference);
    JobSettings refSettings = settings(runId + "-ref");
    JobClient refJob = TierwiseJobs.start(refSettings);
    // Part by part, as the killed run gets them: all 36 intervals at once let one partition's
    // volumes run more than a 10 s window's 30 windows ahead of the other's, whose intervals then
    // come late to the cluster's and tenant's 10 s windows (docs/rollups.md "Late intervals").
    for (int p = 0; p < parts.size(); p++) {
      produce(refSettings, reference, parts.get(p));
      awaitTenantReads(reference, readsOf(parts, p + 1));
    }
    awaitQuiet(reference);
    refJob.cancel().get(60, TimeUnit.SECONDS);

    String killed = stack.newTenant(runId + " killed");
    tenants.add(killed);
    JobSettings settings = settings(runId + "-kill");
    produce(settings, killed, parts.get(0));
    JobClient job = TierwiseJobs.start(settings);
    awaitTenantReads(killed, readsOf(parts, 1));
    Instant afterPart1 = Instant.now();
    Path checkpoint = awaitCheckpointAfter(settings.checkpointDir(), afterPart1);
    Instant part2At = Instant.now();
    produce(settings, killed, parts.get(1));
    awaitTenantReads(killed, readsOf(parts, 2));
    job.cancel().get(60, TimeUnit.SECONDS);
    Path restored = LocalCheckpoints.newest(settings.checkpointDir()).orElseThrow();
    assertThat(restored).as("no checkpoint after the second part: its rows are replayed after the restart")
        .isEqualTo(checkpoint);
    assertThat(Files.getLastModifiedTime(restored.resolve("_metadata")).toInstant()).isBefore(part2At);

    job = TierwiseJobs.start(settings);
    produce(settings, killed, parts.get(2));
    awaitTenantReads(killed, readsOf(parts, 3));
    awaitQuiet(killed);
    job.cancel().get(60, TimeUnit.SECONDS);

    for (String table : TABLES_COMPARED) {
      List<Map<String, Object>> want = rowsOf(table, reference);
      assertThat(want).as(table + " of the run without the kill").isNotEmpty();
      assertThat(rowsOf(table, killed)).as(table + " after kill and restart").containsExactlyElementsOf(want);
    }
    System.out.printf("restart test: %d metric_rollups rows equal to the run without the kill; restored %s%n",
        rowsOf("metric_rollups", killed).size(), restored);
  }

  /** Intervals {@code from}..{@code to}-1 of every volume: random counts, latencies and gauges (fixed seed). */
  private static List<AgentTelemetry.Interval> telemetry(int from, int to) {
    long t0 = (Instant.now().getEpochSecond() / 3600 - 1) * 3600 * 1_000_000_000L;
    List<AgentTelemetry.Interval> out = new ArrayList<>();
    for (int n = from; n < to; n++) {
      for (int v = 0; v < VOLUMES; v++) {
        AgentTelemetry.Interval i = AgentTelemetry.busyInterval(t0 + n * 10_000_000_000L, new Random(31L * n + v));
        i.capacityBytes = (v + 1L) << 30;
        i.occupancyBytes = Math.min(i.capacityBytes, (n + 1L) * (8L << 20));
        out.add(i);
      }
    }
    return out;
  }

  private static long readsOf(List<List<AgentTelemetry.Interval>> parts, int count) {
    return parts.subList(0, count).stream().flatMap(List::stream).mapToLong(i -> i.readOps).sum();
  }

  private static JobSettings settings(String prefix) throws Exception {
    stack.createTopics(prefix, 2);
    Path dir = Files.createTempDirectory("tierwise-restart-checkpoints");
    checkpointDirs.add(dir);
    return new JobSettings(stack.brokers(), stack.jdbcUrl(), prefix + ".metrics", prefix + ".refs", prefix,
        dir, CHECKPOINT_INTERVAL, Duration.ofMillis(300));
  }

  /** Sends the intervals as the agent would: one request per volume interval, volumes on hosts h0/h1 of one cluster. */
  private static void produce(JobSettings settings, String tenant, List<AgentTelemetry.Interval> intervals)
      throws Exception {
    List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
    for (int k = 0; k < intervals.size(); k++) {
      String volume = "vol-" + (k % VOLUMES);
      IngestRecord record = IngestRecord.newBuilder().setTenantId(tenant).setBatchId(UUID.randomUUID().toString())
          .setPayload(AgentTelemetry.request("cluster-1", "h" + (k % VOLUMES) / 2, volume, intervals.get(k))
              .toByteString())
          .build();
      records.add(new ProducerRecord<>(settings.metricsTopic(), tenant + "/" + volume, record.toByteArray()));
    }
    stack.send(records);
  }

  private static void awaitTenantReads(String tenant, long expected) throws Exception {
    stack.awaitValue("SELECT coalesce(sum(read_ops), 0) FROM metric_rollups WHERE tenant_id = CAST(? AS uuid)"
        + " AND scope = 'tenant' AND resolution = '1d'", expected, TIMEOUT, tenant);
  }

  /** Waits until no row of the tenant has changed for 2 s (every pending flush written). */
  private static void awaitQuiet(String tenant) throws Exception {
    String sql = "SELECT max(updated_at)::text AS last FROM metric_rollups WHERE tenant_id = CAST(? AS uuid)";
    Object last = null;
    while (true) {
      Thread.sleep(2000);
      Object now = stack.rows(sql, tenant).get(0).get("last");
      if (now != null && now.equals(last)) {
        return;
      }
      last = now;
    }
  }

  private static Path awaitCheckpointAfter(Path dir, Instant after) throws Exception {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      Optional<Path> newest = LocalCheckpoints.newest(dir);
      if (newest.isPresent()
          && Files.getLastModifiedTime(newest.get().resolve("_metadata")).toInstant().isAfter(after)) {
        return newest.get();
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no checkpoint completed in " + dir + " within " + TIMEOUT.toSeconds() + " s");
  }

  /** Every row of {@code table} for the tenant, without tenant ids and write times, in key order. */
  private static List<Map<String, Object>> rowsOf(String table, String tenant) throws Exception {
    List<Map<String, Object>> rows = stack.rows("SELECT * FROM " + table + " WHERE tenant_id = CAST(? AS uuid)", tenant);
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      row.remove("tenant_id");
      row.remove("updated_at");
      if ("tenant".equals(row.get("scope"))) {
        row.put("scope_id", "<tenant>");
      }
      row.replaceAll((k, v) -> v == null ? "<null>" : v.toString());
      out.add(row);
    }
    out.sort((a, b) -> a.toString().compareTo(b.toString()));
    return out;
  }
}
