package io.tierwise.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tierwise.jobs.ingest.KafkaSources;
import io.tierwise.jobs.testing.AgentTelemetry;
import io.tierwise.jobs.testing.TestStack;
import io.tierwise.proto.v1.BlockReference;
import io.tierwise.proto.v1.Direction;
import io.tierwise.proto.v1.IngestRecord;
import io.tierwise.proto.v1.ReferenceBatch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Both pipelines in an embedded MiniCluster against the real Kafka and PostgreSQL of
 * {@code TIERWISE_PROFILE=test} (env TIERWISE_KAFKA_BROKERS, TIERWISE_JDBC_URL,
 * TIERWISE_PG_OWNER_URL): IngestRecords of a fresh tenant (metrics and reference batches, out
 * of order across and within volumes, a split interval, malformed records) go in; the rows of
 * every table the jobs write are checked. Topics and consumer groups are this run's own.
 */
class StreamJobsIntegrationTest {
  private static final long T0 = 1_700_000_000_000_000_000L;
  private static final long TEN_S = 10_000_000_000L;
  private static final long MIB = 1L << 20;
  private static final Duration RESULT_TIMEOUT = Duration.ofSeconds(60);

  private static TestStack stack;
  private static String runId;
  private static String tenant;
  private static JobSettings settings;
  private static JobClient job;

  @BeforeAll
  static void startJobs() throws Exception {
    stack = TestStack.fromEnvironment();
    runId = "it-" + UUID.randomUUID().toString().substring(0, 8);
    tenant = stack.newTenant("stream-jobs " + runId);
    stack.createTopics(runId, 2);
    Path checkpoints = Files.createTempDirectory("tierwise-it-checkpoints");
    settings = new JobSettings(stack.brokers(), stack.jdbcUrl(), runId + ".metrics", runId + ".refs", runId, checkpoints,
        Duration.ofSeconds(2), Duration.ofMillis(500));
    KafkaSources.requireTopics(stack.brokers(), List.of(settings.metricsTopic(), settings.refsTopic()));
    job = TierwiseJobs.start(settings);
  }

  @AfterAll
  static void stopJobs() throws Exception {
    if (job != null) {
      job.cancel().get(60, TimeUnit.SECONDS);
    }
    if (runId != null && stack != null) {
      stack.deleteTopicsAndGroups(runId);
    }
    if (tenant != null) {
      for (String table : List.of("volume_metrics_10s", "metric_rollups", "volume_io_stats", "volume_block_sizes",
          "volume_working_sets", "volume_mrcs", "cluster_working_sets", "cluster_mrcs", "host_working_sets", "host_mrcs",
          "recommendations")) {
        stack.ownerRows("DELETE FROM " + table + " WHERE tenant_id = CAST(? AS uuid)", tenant);
      }
      stack.ownerRows("DELETE FROM tenants WHERE id = CAST(? AS uuid)", tenant);
    }
  }

  @Test
  void metricsAndReferencesBecomeRowsInPostgres() throws Exception {
    List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
    // Metrics: volumes m0..m2, intervals 0..2 sent newest first and interleaved; m2's
    // interval 1 arrives as two records (a split batch); one record with a bad tenant.
    for (int n = 2; n >= 0; n--) {
      for (int v = 0; v < 3; v++) {
        if (v == 2 && n == 1) {
          records.add(metrics("m2", n, 150, 3, "#1"));
          records.add(metrics("m2", n, reads(v, n) - 150, 2, "#2"));
        } else {
          records.add(metrics("m" + v, n, reads(v, n), 5, ""));
        }
      }
    }
    records.add(new ProducerRecord<>(settings.metricsTopic(), "x/m0", IngestRecord.newBuilder()
        .setTenantId("not-a-uuid").setPayload(AgentTelemetry.request("h", "m0", interval(0, 999, 5)).toByteString())
        .build().toByteArray()));
    // References: volume r0 in 12 batches of 500 (rate 1/100), sent with 0<->1 and 3<->4 swapped;
    // volume r1 in 2 batches (too few references for a recommendation); volume r2 malformed.
    // Volumes c0 and c1 of cluster c0ffee01: 2 batches of 100 references over 50 blocks each, at R = 1.
    int[] order = {1, 0, 2, 4, 3, 5, 6, 7, 8, 9, 10, 11};
    for (int seq : order) {
      records.add(refs(cyclicBatch("r0", seq, 2000, 500)));
    }
    records.add(refs(cyclicBatch("r1", 0, 50, 100)));
    records.add(refs(cyclicBatch("r1", 1, 50, 100)));
    for (int seq = 0; seq < 2; seq++) {
      for (String volume : List.of("c0", "c1")) {
        records.add(refs(clusterBatch(volume, seq)));
      }
    }
    ReferenceBatch bad = cyclicBatch("r2", 0, 10, 10).toBuilder()
        .setReferences(0, BlockReference.newBuilder().setBlockHash(101).setDirection(Direction.DIRECTION_READ)
            .setLengthBlocks(1))
        .build();
    records.add(refs(bad));
    stack.send(records);
    long sentAt = System.nanoTime();

    awaitRows("SELECT count(*) FROM volume_io_stats WHERE tenant_id = CAST(? AS uuid) AND read_ops = "
        + "(CASE volume_id WHEN 'm0' THEN 600 WHEN 'm1' THEN 603 ELSE 606 END)", 3);
    awaitRows("SELECT count(*) FROM volume_working_sets WHERE tenant_id = CAST(? AS uuid) AND window_name = 'all' AND "
        + "volume_id IN ('r0', 'r1') AND sampled_references = (CASE volume_id WHEN 'r0' THEN 6000 ELSE 200 END)", 2);
    awaitRows("SELECT count(*) FROM recommendations WHERE tenant_id = CAST(? AS uuid)", 1);
    System.out.printf("stream jobs: all rows visible %.1f s after the last record was produced%n",
        (System.nanoTime() - sentAt) / 1e9);

    // volume_metrics_10s: 9 intervals, the split one summed. Each table's sink flushes on its own
    // schedule, so these rows are awaited too (the other tables' rows do not imply them).
    awaitRows("SELECT CASE WHEN count(*) = 9 THEN sum(read_ops) ELSE 0 END FROM volume_metrics_10s"
        + " WHERE tenant_id = CAST(? AS uuid)", 600 + 603 + 606);
    Map<String, Long> readOps = new HashMap<>();
    for (Map<String, Object> row : query("SELECT volume_id, extract(epoch FROM interval_start)::bigint AS s, read_ops,"
        + " interval_seconds, cache_hits, read_cache_misses, capacity_bytes FROM volume_metrics_10s"
        + " WHERE tenant_id = CAST(? AS uuid)")) {
      long n = ((Number) row.get("s")).longValue() * 1_000_000_000L;
      readOps.put(row.get("volume_id") + "@" + (n - T0) / TEN_S, ((Number) row.get("read_ops")).longValue());
      assertThat(((Number) row.get("interval_seconds")).doubleValue()).isEqualTo(10.0);
      assertThat(((Number) row.get("capacity_bytes")).longValue()).isEqualTo(1L << 30);
    }
    assertThat(readOps).containsExactlyInAnyOrderEntriesOf(Map.of("m0@0", 100L, "m0@1", 200L, "m0@2", 300L,
        "m1@0", 101L, "m1@1", 201L, "m1@2", 301L, "m2@0", 102L, "m2@1", 202L, "m2@2", 302L));

    // volume_io_stats: totals over the three intervals.
    Map<String, Object> m0 = single("SELECT read_ops, write_ops, read_bytes, cache_hits, cache_misses, read_cache_hits,"
        + " first_interval = to_timestamp(1700000000) AS first_ok, last_interval = to_timestamp(1700000020) AS last_ok"
        + " FROM volume_io_stats WHERE tenant_id = CAST(? AS uuid) AND volume_id = 'm0'");
    assertThat(m0).containsEntry("read_ops", 600L).containsEntry("write_ops", 15L)
        .containsEntry("read_bytes", 600L * 4096).containsEntry("read_cache_hits", 300L)
        .containsEntry("cache_hits", 300L + 3).containsEntry("first_ok", true).containsEntry("last_ok", true);

    // metric_rollups: the nine volume intervals (one of them split in two records) fall in one
    // minute, hour and day of the tenant.
    for (String resolution : List.of("1m", "1h", "1d")) {
      awaitRows("SELECT coalesce(sum(read_ops), 0) FROM metric_rollups WHERE tenant_id = CAST(? AS uuid)"
          + " AND scope = 'tenant' AND resolution = '" + resolution + "'", 600 + 603 + 606);
    }

    // The windows' sources: every source's I/Os, bytes and latency at every resolution (a volume's
    // 10 s windows are its interval rows: rollup_windows); the peer of the write-back writes (WB+1:
    // each write held by one peer, latency in bucket 9).
    assertThat(single("SELECT count(*) AS n FROM metric_rollups WHERE tenant_id = CAST(? AS uuid)"
        + " AND scope = 'volume' AND resolution = '10s'")).as("no second row of a volume's interval").containsEntry("n", 0L);
    for (String resolution : List.of("10s", "1m", "1h", "1d")) {
      awaitRows("SELECT coalesce(sum((sources->'peer'->'write'->>'ops')::bigint), 0) FROM rollup_windows"
          + " WHERE tenant_id = CAST(? AS uuid) AND scope = 'tenant' AND resolution = '" + resolution + "'", 9 * 5);
      Map<String, Object> sources = single("SELECT sum((sources->'peer'->'write'->>'bytes')::bigint) AS peer_bytes,"
          + " sum((sources->'peer'->'write'->'latency_us'->>9)::bigint) AS peer_latency_ios,"
          + " sum((sources->'cache'->'read'->>'bytes')::bigint) AS cache_bytes,"
          + " sum((sources->'datastore'->'write'->>'ops')::bigint) AS datastore_writes"
          + " FROM rollup_windows WHERE tenant_id = CAST(? AS uuid) AND scope = 'volume' AND scope_id = 'm0'"
          + " AND resolution = '" + resolution + "'");
      assertThat(sources).as(resolution).containsEntry("peer_bytes", java.math.BigDecimal.valueOf(3 * 5 * 65536))
          .containsEntry("peer_latency_ios", java.math.BigDecimal.valueOf(3 * 5))
          .containsEntry("cache_bytes", java.math.BigDecimal.valueOf((50 + 100 + 150) * 4096))
          .containsEntry("datastore_writes", java.math.BigDecimal.valueOf(3 * 5));
    }

    // volume_block_sizes: reads in the 4096 bin, writes in the 65536 bin.
    assertThat(query("SELECT direction, bin_label, bin_upper_bytes, ops, bytes FROM volume_block_sizes"
        + " WHERE tenant_id = CAST(? AS uuid) AND volume_id = 'm2' ORDER BY direction"))
        .extracting(r -> r.get("direction") + "/" + r.get("bin_label") + "/" + r.get("bin_upper_bytes") + "="
            + r.get("ops") + "," + r.get("bytes"))
        .containsExactly("read/4096/4096=606,2482176", "write/65536/65536=15,983040");

    // Working sets: r0 touches 2000 sampled blocks at R = 1/100 (1600 read, 400 only written).
    Map<String, Object> ws = single("SELECT wss_bytes, wss_read_bytes, wss_write_bytes, sampled_references,"
        + " sampling_rate, window_end > window_start AS window_ok FROM volume_working_sets"
        + " WHERE tenant_id = CAST(? AS uuid) AND volume_id = 'r0' AND window_name = 'all'");
    assertThat(ws).containsEntry("wss_bytes", 2000L * 100 * 4096).containsEntry("wss_read_bytes", 1600L * 100 * 4096)
        .containsEntry("wss_write_bytes", 400L * 100 * 4096).containsEntry("sampled_references", 6000L)
        .containsEntry("sampling_rate", 0.01).containsEntry("window_ok", true);

    // MRC: a loop over 2000 sampled blocks (~781 MiB scaled) read 3 times: everything misses
    // below the loop, a third (the first pass) above it.
    Map<String, Object> mrc = single("SELECT method, points::text AS points"
        + " FROM volume_mrcs WHERE tenant_id = CAST(? AS uuid) AND volume_id = 'r0' AND window_name = 'all'");
    assertThat(mrc).containsEntry("method", "shards-fixed-size");
    assertThat(count("SELECT count(*) FROM volume_mrcs WHERE tenant_id = CAST(? AS uuid) AND volume_id = 'r0'"))
        .as("windows all, 1h, 24h, 7d").isEqualTo(4);
    JsonNode points = new ObjectMapper().readTree((String) mrc.get("points"));
    assertThat(points.get(0).get("cache_bytes").asLong()).isEqualTo(4 * MIB);
    for (JsonNode p : points) {
      double expected = p.get("cache_bytes").asLong() <= 768 * MIB ? 1.0 : 1.0 / 3;
      assertThat(p.get("miss_ratio").asDouble()).as("miss ratio at %s", p.get("cache_bytes")).isCloseTo(expected, within(1e-9));
    }
    assertThat(points.get(points.size() - 1).get("cache_bytes").asLong()).isEqualTo(2048 * MIB);

    // Recommendation: achievable 2/3, target 0.6, reached at 1 GiB; 80 % reads -> 1 GiB of RAM.
    Map<String, Object> rec = single("SELECT tier_bytes, media, policy, predicted_hit_ratio, achievable_hit_ratio,"
        + " target_hit_ratio, explanation, inputs->>'read_share' AS read_share, window_name, replicas,"
        + " tier_write_bytes_per_day FROM recommendations WHERE tenant_id = CAST(? AS uuid) AND volume_id = 'r0'");
    assertThat(rec).containsEntry("tier_bytes", 1024 * MIB).containsEntry("media", "ram")
        .containsEntry("policy", "write-through").containsEntry("read_share", "0.8");
    assertThat((Double) rec.get("predicted_hit_ratio")).isCloseTo(2.0 / 3, within(1e-9));
    assertThat((Double) rec.get("target_hit_ratio")).isCloseTo(0.6, within(1e-9));
    assertThat((String) rec.get("explanation")).contains("1 GiB", "RAM");
    assertThat((Double) rec.get("tier_write_bytes_per_day")).as("the tier's writes per day are written").isPositive();

    // The cluster: c0's and c1's references merged in time order (the last second's after the
    // idle timeout): the same 50 block numbers of two volumes are 100 blocks of the shared tier.
    awaitRows("SELECT count(*) FROM cluster_working_sets WHERE tenant_id = CAST(? AS uuid) AND cluster_id = 'c0ffee01'"
        + " AND window_name = 'all' AND sampled_references = 400", 1);
    Map<String, Object> cluster = single("SELECT volumes, wss_bytes, sampling_rate FROM cluster_working_sets"
        + " WHERE tenant_id = CAST(? AS uuid) AND cluster_id = 'c0ffee01' AND window_name = 'all'");
    assertThat(cluster).containsEntry("volumes", 2).containsEntry("wss_bytes", 100L * 4096)
        .containsEntry("sampling_rate", 1.0);
    assertThat(count("SELECT count(*) FROM volume_working_sets WHERE tenant_id = CAST(? AS uuid) AND volume_id = 'c0'"
        + " AND window_name = 'all' AND wss_bytes = 50 * 4096")).as("each volume alone: 50 blocks").isEqualTo(1);
    // Windows all, 1h, 24h, 7d (another sink than the working sets': awaited, not read at once).
    awaitRows("SELECT count(*) FROM cluster_mrcs WHERE tenant_id = CAST(? AS uuid) AND cluster_id = 'c0ffee01'", 4);
    // Each host's volumes share its tier too: host-c0 holds c0 alone.
    awaitRows("SELECT count(*) FROM host_working_sets WHERE tenant_id = CAST(? AS uuid) AND host_id = 'host-c0'"
        + " AND window_name = 'all' AND sampled_references = 200 AND volumes = 1 AND wss_bytes = 50 * 4096", 1);
    awaitRows("SELECT count(*) FROM host_mrcs WHERE tenant_id = CAST(? AS uuid) AND host_id = 'host-c0'", 4);

    // Malformed input left nothing behind, and nothing else was lost.
    assertThat(count("SELECT count(*) FROM volume_working_sets WHERE tenant_id = CAST(? AS uuid) AND volume_id = 'r2'")).isZero();
    assertThat(count("SELECT count(*) FROM volume_io_stats WHERE tenant_id = CAST(? AS uuid)")).isEqualTo(3);
  }

  private static long reads(int volume, int n) {
    return 100L * (n + 1) + volume;
  }

  /** Interval n: 4 KiB reads, 64 KiB writes, half of the reads hit; one write hit per record. */
  private static AgentTelemetry.Interval interval(int n, long reads, long writes) {
    AgentTelemetry.Interval i = new AgentTelemetry.Interval(T0 + n * TEN_S, 10);
    i.readOps = reads;
    i.readBytes = reads * 4096;
    i.writeOps = writes;
    i.writeBytes = writes * 65536;
    i.readHits = reads / 2;
    i.readMisses = reads - reads / 2;
    i.writeHits = 1;
    i.writeMisses = writes - 1;
    i.capacityBytes = 1L << 30;
    i.occupancyBytes = 1L << 29;
    i.readSizeOps[4] = reads;
    i.readSizeBytes[4] = reads * 4096;
    i.writeSizeOps[12] = writes;
    i.writeSizeBytes[12] = writes * 65536;
    i.peerWrites = writes;
    i.peerWriteBytes = writes * 65536;
    i.peerWriteLatency = new long[20];
    i.peerWriteLatency[9] = writes;
    return i;
  }

  /** One metrics record of {@code volume}, interval n; {@code split} is the batch id suffix of a split batch. */
  private static ProducerRecord<String, byte[]> metrics(String volume, int n, long reads, long writes, String split) {
    IngestRecord r = IngestRecord.newBuilder().setTenantId(tenant).setAgentId(UUID.randomUUID().toString())
        .setBatchId(UUID.randomUUID() + split).setReceivedUnixNano(System.currentTimeMillis() * 1_000_000L)
        .setPayload(AgentTelemetry.request("host-1", volume, interval(n, reads, writes)).toByteString()).build();
    return new ProducerRecord<>(settings.metricsTopic(), tenant + "/" + volume, r.toByteArray());
  }

  /**
   * Batch {@code seq} of a loop over {@code blocks} sampled blocks (hash 100 j: sampled at
   * P = 100, T = 1), {@code size} references per batch; every fifth reference is a write.
   */
  private static ReferenceBatch cyclicBatch(String volume, int seq, int blocks, int size) {
    ReferenceBatch.Builder b = ReferenceBatch.newBuilder().setBatchId(UUID.randomUUID().toString())
        .setHostId("host-1").setVolumeId(volume).setSequence(seq).setSamplingModulus(100).setSamplingThreshold(1)
        .setBaseTimeUnixNano(T0 + seq * 1_000_000_000L);
    for (int k = 0; k < size; k++) {
      long i = (long) seq * size + k;
      b.addReferences(BlockReference.newBuilder().setBlockHash(100 * (i % blocks))
          .setDirection(i % 5 == 0 ? Direction.DIRECTION_WRITE : Direction.DIRECTION_READ)
          .setLengthBlocks(1).setTimeOffsetUs(k * 1000L));
    }
    return b.build();
  }

  /** Batch {@code seq} of volume {@code volume} of cluster c0ffee01: 100 reads of blocks 0..49 twice, R = 1. */
  private static ReferenceBatch clusterBatch(String volume, int seq) {
    ReferenceBatch.Builder b = ReferenceBatch.newBuilder().setBatchId(UUID.randomUUID().toString())
        .setHostId("host-" + volume).setVolumeId(volume).setClusterId("c0ffee01").setSequence(seq)
        .setSamplingModulus(1 << 24).setSamplingThreshold(1 << 24).setBaseTimeUnixNano(T0 + seq * 1_000_000_000L);
    for (int k = 0; k < 100; k++) {
      b.addReferences(BlockReference.newBuilder().setBlockHash(k % 50).setDirection(Direction.DIRECTION_READ)
          .setLengthBlocks(1).setTimeOffsetUs(k * 1000L));
    }
    return b.build();
  }

  private static ProducerRecord<String, byte[]> refs(ReferenceBatch batch) {
    IngestRecord r = IngestRecord.newBuilder().setTenantId(tenant).setBatchId(batch.getBatchId())
        .setPayload(batch.toByteString()).build();
    return new ProducerRecord<>(settings.refsTopic(), tenant + "/" + batch.getVolumeId(), r.toByteArray());
  }

  private static void awaitRows(String countSql, long expected) throws Exception {
    stack.awaitValue(countSql, expected, RESULT_TIMEOUT, tenant);
  }

  private static long count(String sql) throws Exception {
    return ((Number) single(sql).values().iterator().next()).longValue();
  }

  private static Map<String, Object> single(String sql) throws Exception {
    List<Map<String, Object>> rows = query(sql);
    assertThat(rows).as(sql).hasSize(1);
    return rows.get(0);
  }

  /** Runs {@code sql} as tierwise_jobs with the tenant id as its only parameter. */
  private static List<Map<String, Object>> query(String sql) throws Exception {
    return stack.rows(sql, tenant);
  }
}
