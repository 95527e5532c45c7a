package io.tierwise.jobs.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The cache health columns of volume_metrics_10s, as {@link MetricsRollupFunction} writes them. */
class IntervalCacheHealthTest {
  private static final long FLUSH_MS = 1000;
  private static final long T0 = 1_700_000_000_000_000_000L;
  private static final long TEN_S = 10_000_000_000L;

  private KeyedOneInputStreamOperatorTestHarness<String, IntervalMetrics, VolumeMetricsRow> harness;
  private long now;

  @BeforeEach
  void open() throws Exception {
    harness = ProcessFunctionTestHarnesses.forKeyedProcessFunction(
        new MetricsRollupFunction(FLUSH_MS, 30_000), IntervalMetrics::volumeKey, Types.STRING);
    harness.setProcessingTime(0);
  }

  @AfterEach
  void close() throws Exception {
    harness.close();
  }

  /** Interval n of volume "vol-1" as the agent reports it: mode, fallbacks, peers, dirty bytes. */
  private static IntervalMetrics interval(int n, String mode, long fallbacks, long peers, long dirty) {
    IntervalMetrics m = new IntervalMetrics();
    m.tenantId = "3f2a0c1e-8a4b-4c1d-9e2f-0123456789ab";
    m.volumeId = "vol-1";
    m.intervalStartUnixNano = T0 + n * TEN_S;
    m.intervalEndUnixNano = m.intervalStartUnixNano + TEN_S;
    m.io.readOps = 100;
    m.health.mode = mode;
    m.health.fallbacks = fallbacks;
    m.health.healthyPeers = peers;
    m.health.dirtyBytes = dirty;
    m.health.latencyOps[4] = 100;
    m.health.latencySumMicros[4] = 25_000;
    return m;
  }

  /** Processes each record and flushes after it, as the volume's intervals arrive 10 s apart. */
  private void eachFlushed(IntervalMetrics... records) throws Exception {
    for (IntervalMetrics m : records) {
      harness.processElement(m, now);
      now += FLUSH_MS;
      harness.setProcessingTime(now);
    }
  }

  private List<VolumeMetricsRow> rows() {
    return harness.extractOutputValues();
  }

  private List<String> modes() {
    return rows().stream().map(r -> r.health.configuredMode + ">" + r.health.effectiveMode).toList();
  }

  @Test
  void aPeerFailureReadsConfiguredWriteBackEffectiveWriteThroughUntilPeersAcknowledgeAgain() throws Exception {
    eachFlushed(interval(0, "write-back", 0, 1, 8192),
        interval(1, "write-back", 1, 0, 65536), // the peer failed; the backlog drains
        interval(2, "write-through", 0, 0, 0),
        interval(3, "write-back", 0, 1, 0)); // restarted with a healthy peer

    assertThat(modes()).containsExactly("write-back>write-back", "write-back>write-through",
        "write-back>write-through", "write-back>write-back");
    IntervalCacheHealth draining = rows().get(1).health;
    assertThat(draining.dirtyBytes).isEqualTo(65536);
    assertThat(draining.latencyOps[4]).isEqualTo(100);
    assertThat(draining.latencySumMicros[4]).isEqualTo(25_000);
  }

  @Test
  void aVolumeSwitchedToWriteThroughByItsPolicyIsNoFallback() throws Exception {
    eachFlushed(interval(0, "write-back", 0, 0, 4096), interval(1, "write-through", 0, 0, 0));

    assertThat(modes()).containsExactly("write-back>write-back", "write-through>write-through");
  }

  @Test
  void theIntervalsDestageAndTierErrorsReachItsRow() throws Exception {
    IntervalMetrics failing = interval(1, "write-back", 0, 1, 4096);
    failing.health.destageErrors = 3;
    failing.health.tierErrors = 1;
    eachFlushed(interval(0, "write-back", 0, 1, 4096), failing);

    assertThat(rows()).extracting(r -> r.health.destageErrors + "/" + r.health.tierErrors)
        .containsExactly("0/0", "3/1");
  }

  @Test
  void aSplitIntervalAddsItsRecordsLatencyAndErrorsAndKeepsTheLatestDirtyBytes() throws Exception {
    IntervalMetrics first = interval(0, "write-back", 0, 1, 8192);
    first.health.destageErrors = 1;
    IntervalMetrics rest = interval(0, "write-back", 0, 1, 4096);
    rest.health.destageErrors = 2;
    rest.health.latencyOps[4] = 50;
    rest.health.latencySumMicros[4] = 5_000;
    harness.processElement(first, 0);
    harness.processElement(rest, 0);
    harness.setProcessingTime(FLUSH_MS);

    assertThat(rows()).hasSize(1);
    IntervalCacheHealth h = rows().get(0).health;
    assertThat(h.latencyOps[4]).isEqualTo(150);
    assertThat(h.latencySumMicros[4]).isEqualTo(30_000);
    assertThat(h.destageErrors).isEqualTo(3);
    assertThat(h.dirtyBytes).isEqualTo(4096);
    assertThat(rows().get(0).io.readOps).isEqualTo(200);
  }

  @Test
  void intervalsWithoutTheModeAttributeHaveCountersAndNoHealth() throws Exception {
    eachFlushed(interval(0, null, 0, -1, -1));

    assertThat(rows()).singleElement().satisfies(r -> {
      assertThat(r.io.readOps).isEqualTo(100);
      assertThat(r.health).isNull();
    });
  }
}
