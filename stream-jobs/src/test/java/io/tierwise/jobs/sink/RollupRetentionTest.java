package io.tierwise.jobs.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.tierwise.jobs.testing.TestStack;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The retention of metric_rollups against the real PostgreSQL of the test profile: 10 s rows
 * older than 2 days go with their dropped partition (or from the default partition), newer ones
 * and coarser resolutions stay; a volume's 10 s window documents in its interval rows likewise.
 */
class RollupRetentionTest {
  private static final String INSERT = """
      INSERT INTO metric_rollups (tenant_id, scope, scope_id, resolution, window_start, volumes, read_ops,
        write_ops, read_bytes, write_bytes, cache_hits, cache_misses, read_cache_hits, read_cache_misses,
        evicted_bytes, occupancy_bytes, capacity_bytes, latency_us)
      VALUES (CAST(? AS uuid), 'volume', 'vol-r', ?, now() - CAST(? AS interval), 1, 1, 0, 4096, 0, 0, 0, 0, 0,
        0, 0, 0, '{}')""";

  @Test
  void dropsPartitionsOlderThanTheRetentionOfTheirResolution() throws Exception {
    TestStack stack = TestStack.fromEnvironment();
    String tenant = stack.newTenant("rollup retention test");
    try {
      // Partitions as an hourly run five days ago left them (10 s: from 7 days ago).
      stack.rows("SELECT * FROM maintain_rollup_partitions(now() - interval '5 days')");
      String oldPartition = "metric_rollups_10s_p" + (now(stack) - 4 * 86400) / 86400 * 86400;
      stack.ownerRows(INSERT, tenant, "10s", "4 days");
      stack.ownerRows(INSERT, tenant, "10s", "9 days"); // older than every partition: default partition
      stack.ownerRows(INSERT, tenant, "10s", "1 hour");
      stack.ownerRows(INSERT, tenant, "1d", "9 days");
      assertThat(regclass(stack, oldPartition)).isTrue();

      int dropped = RollupRetention.enforce(stack.jdbcUrl());

      assertThat(dropped).isGreaterThanOrEqualTo(1);
      assertThat(regclass(stack, oldPartition)).as(oldPartition + " dropped").isFalse();
      List<Map<String, Object>> left = stack.ownerRows("SELECT resolution, (now() - window_start) < interval '2 days'"
          + " AS recent FROM metric_rollups WHERE tenant_id = CAST(? AS uuid) ORDER BY resolution", tenant);
      assertThat(left).extracting(r -> r.get("resolution") + (Boolean.TRUE.equals(r.get("recent")) ? " recent" : " old"))
          .containsExactly("10s recent", "1d old");
    } finally {
      stack.ownerRows("DELETE FROM metric_rollups WHERE tenant_id = CAST(? AS uuid)", tenant);
      stack.ownerRows("DELETE FROM tenants WHERE id = CAST(? AS uuid)", tenant);
    }
  }

  @Test
  void endsTheDocumentsOfAVolumesTenSecondWindowsWithTheTenSecondRetentionAndKeepsTheInterval() throws Exception {
    TestStack stack = TestStack.fromEnvironment();
    String tenant = stack.newTenant("window documents retention test");
    String interval = """
        INSERT INTO volume_metrics_10s (tenant_id, volume_id, interval_start, interval_seconds, read_ops, write_ops,
          read_bytes, write_bytes, cache_hits, cache_misses, read_cache_hits, read_cache_misses, evicted_bytes,
          occupancy_bytes, capacity_bytes, latency_us, sources, workload, cpu)
        VALUES (CAST(? AS uuid), 'vol-w', now() - CAST(? AS interval), 10, 7, 0, 28672, 0, 0, 0, 0, 0, 0, 0, 0,
          '{"read": {}}', '{}', '{}', '{}')""";
    try {
      stack.rows("SELECT * FROM maintain_rollup_partitions(now() - interval '5 days')");
      String oldPartition = "volume_metrics_10s_p" + (now(stack) - 4 * 86400) / 86400 * 86400;
      stack.ownerRows(interval, tenant, "4 days");
      stack.ownerRows(interval, tenant, "1 hour");
      // As if no run had rewritten the partition yet (a run of another test may have).
      stack.ownerRows("COMMENT ON TABLE " + oldPartition + " IS NULL");

      RollupRetention.enforce(stack.jdbcUrl());

      List<Map<String, Object>> rows = stack.ownerRows("SELECT (now() - interval_start) < interval '2 days' AS recent,"
          + " read_ops, latency_us IS NOT NULL AS documents FROM volume_metrics_10s WHERE tenant_id = CAST(? AS uuid)"
          + " ORDER BY interval_start", tenant);
      assertThat(rows).extracting(r -> r.get("recent") + " " + r.get("read_ops") + " " + r.get("documents"))
          .as("the old interval keeps its counters, not its window's documents").containsExactly("false 7 false", "true 7 true");
      assertThat(stack.ownerRows("SELECT count(*) AS n FROM rollup_windows WHERE tenant_id = CAST(? AS uuid)", tenant))
          .as("only the recent interval is a 10 s window").containsExactly(Map.of("n", 1L));
      assertThat(stack.ownerRows("SELECT obj_description(to_regclass(?), 'pg_class') AS said", oldPartition))
          .containsExactly(Map.of("said", "window documents expired"));
      assertThat(stack.rows("SELECT expire_volume_window_documents() AS n")).as("each partition rewritten once")
          .containsExactly(Map.of("n", 0));
    } finally {
      stack.ownerRows("DELETE FROM volume_metrics_10s WHERE tenant_id = CAST(? AS uuid)", tenant);
      stack.ownerRows("DELETE FROM tenants WHERE id = CAST(? AS uuid)", tenant);
    }
  }

  private static long now(TestStack stack) throws Exception {
    return ((Number) stack.rows("SELECT floor(extract(epoch FROM now()))::bigint AS s").get(0).get("s")).longValue();
  }

  private static boolean regclass(TestStack stack, String name) throws Exception {
    return stack.rows("SELECT to_regclass(?) IS NOT NULL AS present", name).get(0).get("present").equals(true);
  }
}
