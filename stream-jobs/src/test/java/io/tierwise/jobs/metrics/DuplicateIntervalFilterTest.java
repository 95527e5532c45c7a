package io.tierwise.jobs.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

class DuplicateIntervalFilterTest {
  private static final long T0 = 1_700_000_000_000_000_000L;
  private static final long TEN_S = 10_000_000_000L;

  private static KeyedOneInputStreamOperatorTestHarness<String, IntervalMetrics, IntervalMetrics> harness(int remembered)
      throws Exception {
    return harness(remembered, null);
  }

  /** An open harness, restored from {@code snapshot} when one is given. */
  private static KeyedOneInputStreamOperatorTestHarness<String, IntervalMetrics, IntervalMetrics> harness(int remembered,
      OperatorSubtaskState snapshot) throws Exception {
    var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new DuplicateIntervalFilter(remembered)),
        IntervalMetrics::volumeKey, Types.STRING);
    if (snapshot != null) {
      h.initializeState(snapshot);
    }
    h.open();
    return h;
  }

  /** Interval n of a volume as the parser makes it from the ingest record with batch id {@code batch}. */
  private static IntervalMetrics interval(String volume, String batch, int n) {
    IntervalMetrics m = new IntervalMetrics();
    m.tenantId = "3f2a0c1e-8a4b-4c1d-9e2f-0123456789ab";
    m.volumeId = volume;
    m.intervalStartUnixNano = T0 + n * TEN_S;
    m.intervalEndUnixNano = m.intervalStartUnixNano + TEN_S;
    m.recordId = OtlpMetricsParser.recordId(OtlpMetricsParser.batchHash(batch), m.intervalEndUnixNano);
    return m;
  }

  private static List<String> passed(KeyedOneInputStreamOperatorTestHarness<String, IntervalMetrics, IntervalMetrics> h) {
    return h.extractOutputValues().stream().map(m -> m.volumeId + "@" + (m.intervalStartUnixNano - T0) / TEN_S).toList();
  }

  @Test
  void anIntervalSentAgainUnderItsBatchIdIsDroppedOnceAndForAll() throws Exception {
    try (var h = harness(DuplicateIntervalFilter.DEFAULT_REMEMBERED)) {
      h.processElement(interval("vol-1", "b-0#0", 0), 0);
      h.processElement(interval("vol-1", "b-1#0", 1), 0);
      h.processElement(interval("vol-1", "b-0#0", 0), 0); // the agent's resend after a lost answer
      h.processElement(interval("vol-2", "b-0#0", 0), 0); // another volume: its own record
      h.processElement(interval("vol-1", "b-2#0", 0), 0); // the same interval in another batch is another record
      h.processElement(interval("vol-1", "b-1#0", 1), 0);
      assertThat(passed(h)).containsExactly("vol-1@0", "vol-1@1", "vol-2@0", "vol-1@0");
    }
  }

  @Test
  void theIdsSurviveARestoreFromACheckpoint() throws Exception {
    OperatorSubtaskState snapshot;
    try (var h = harness(DuplicateIntervalFilter.DEFAULT_REMEMBERED)) {
      h.processElement(interval("vol-1", "b-0#0", 0), 0);
      snapshot = h.snapshot(1, 1);
    }
    try (var h = harness(DuplicateIntervalFilter.DEFAULT_REMEMBERED, snapshot)) {
      h.processElement(interval("vol-1", "b-0#0", 0), 0);
      h.processElement(interval("vol-1", "b-1#0", 1), 0);
      assertThat(passed(h)).containsExactly("vol-1@1");
    }
  }

  @Test
  void aVolumeRemembersItsLatestIdsOnly() throws Exception {
    try (var h = harness(3)) {
      for (int n = 0; n < 4; n++) {
        h.processElement(interval("vol-1", "b-" + n, n), 0);
      }
      h.processElement(interval("vol-1", "b-1", 1), 0); // among the last 3: dropped
      h.processElement(interval("vol-1", "b-0", 0), 0); // 4 ids later: forgotten, passes (the documented bound)
      assertThat(passed(h)).containsExactly("vol-1@0", "vol-1@1", "vol-1@2", "vol-1@3", "vol-1@0");
    }
  }
}
