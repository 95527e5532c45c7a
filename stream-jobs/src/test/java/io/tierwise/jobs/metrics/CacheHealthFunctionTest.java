package io.tierwise.jobs.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CacheHealthFunctionTest {
  private static final long T0 = 1_700_000_000_000_000_000L;
  private static final long TEN_S = 10_000_000_000L;

  private KeyedOneInputStreamOperatorTestHarness<String, IntervalMetrics, CacheHealthRow> harness;

  @BeforeEach
  void open() throws Exception {
    harness = ProcessFunctionTestHarnesses.forKeyedProcessFunction(
        new CacheHealthFunction(), IntervalMetrics::volumeKey, Types.STRING);
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
    m.health.mode = mode;
    m.health.fallbacks = fallbacks;
    m.health.healthyPeers = peers;
    m.health.dirtyBytes = dirty;
    m.health.latencyOps[4] = 100;
    m.health.latencySumMicros[4] = 25_000;
    return m;
  }

  private List<String> modes() {
    return harness.extractOutputValues().stream().map(r -> r.configuredMode + ">" + r.effectiveMode).toList();
  }

  @Test
  void aPeerFailureReadsConfiguredWriteBackEffectiveWriteThroughUntilPeersAcknowledgeAgain() throws Exception {
    harness.processElement(interval(0, "write-back", 0, 1, 8192), 0);
    harness.processElement(interval(1, "write-back", 1, 0, 65536), 0); // the peer failed; the backlog drains
    harness.processElement(interval(2, "write-through", 0, 0, 0), 0);
    harness.processElement(interval(3, "write-back", 0, 1, 0), 0); // restarted with a healthy peer

    assertThat(modes()).containsExactly("write-back>write-back", "write-back>write-through",
        "write-back>write-through", "write-back>write-back");
    CacheHealthRow draining = harness.extractOutputValues().get(1);
    assertThat(draining.dirtyBytes).isEqualTo(65536);
    assertThat(draining.latencyOps[4]).isEqualTo(100);
    assertThat(draining.latencySumMicros[4]).isEqualTo(25_000);
  }

  @Test
  void aVolumeSwitchedToWriteThroughByItsPolicyIsNoFallback() throws Exception {
    harness.processElement(interval(0, "write-back", 0, 0, 4096), 0);
    harness.processElement(interval(1, "write-through", 0, 0, 0), 0);

    assertThat(modes()).containsExactly("write-back>write-back", "write-through>write-through");
  }

  @Test
  void theIntervalsDestageAndTierErrorsReachItsRow() throws Exception {
    IntervalMetrics failing = interval(1, "write-back", 0, 1, 4096);
    failing.health.destageErrors = 3;
    failing.health.tierErrors = 1;
    harness.processElement(interval(0, "write-back", 0, 1, 4096), 0);
    harness.processElement(failing, 0);

    assertThat(harness.extractOutputValues()).extracting(r -> r.destageErrors + "/" + r.tierErrors)
        .containsExactly("0/0", "3/1");
  }

  @Test
  void intervalsWithoutTheModeAttributeGiveNoRow() throws Exception {
    harness.processElement(interval(0, null, 0, -1, -1), 0);

    assertThat(harness.extractOutputValues()).isEmpty();
  }
}
