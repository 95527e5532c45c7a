package io.tierwise.jobs.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.tierwise.jobs.json.Json;
import io.tierwise.jobs.pacing.CoarseWrites;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MetricsRollupFunctionTest {
  private static final long FLUSH_MS = 1000;
  private static final long COARSE_MS = 30_000;
  private static final long MINUTE_MS = 60_000;
  private static final long T0 = 1_700_000_000_000_000_000L;
  private static final long TEN_S = 10_000_000_000L;

  private KeyedOneInputStreamOperatorTestHarness<String, IntervalMetrics, VolumeMetricsRow> harness;

  @BeforeEach
  void open() throws Exception {
    harness = ProcessFunctionTestHarnesses.forKeyedProcessFunction(
        new MetricsRollupFunction(FLUSH_MS, COARSE_MS), IntervalMetrics::volumeKey, Types.STRING);
    harness.setProcessingTime(0);
  }

  @AfterEach
  void close() throws Exception {
    harness.close();
  }

  /** A record of volume {@code volume}: {@code reads} 4 KiB reads in the interval at T0 + n x 10 s. */
  private static IntervalMetrics record(String volume, int n, long reads, long capacity) {
    IntervalMetrics m = new IntervalMetrics();
    m.tenantId = "3f2a0c1e-8a4b-4c1d-9e2f-0123456789ab";
    m.volumeId = volume;
    m.intervalStartUnixNano = T0 + n * TEN_S;
    m.intervalEndUnixNano = m.intervalStartUnixNano + TEN_S;
    m.io.readOps = reads;
    m.io.readBytes = reads * 4096;
    m.io.cacheHits = reads / 2;
    m.io.readCacheHits = reads / 2;
    m.io.cacheMisses = reads - reads / 2;
    m.io.readCacheMisses = reads - reads / 2;
    m.blockSizes.readOps[4] = reads;
    m.blockSizes.readBytes[4] = reads * 4096;
    m.capacityBytes = capacity;
    m.occupancyBytes = capacity / 2;
    return m;
  }

  private List<VolumeIoStatsRow> ioStats() {
    return harness.getSideOutput(MetricsRollupFunction.IO_STATS).stream().map(StreamRecord::getValue).toList();
  }

  private List<BlockSizeRow> blockSizes() {
    return harness.getSideOutput(MetricsRollupFunction.BLOCK_SIZES).stream().map(StreamRecord::getValue).toList();
  }

  @Test
  void coalescesRecordsIntoOneFlushWithFullAggregates() throws Exception {
    harness.processElement(record("a", 1, 100, 1 << 30), 0);
    harness.processElement(record("a", 0, 50, 2L << 30), 0); // out of order: an earlier interval
    harness.processElement(record("a", 1, 20, 1 << 30), 0); // the rest of interval 1 (split batch)
    harness.processElement(record("b", 0, 7, 0), 0);
    assertThat(harness.extractOutputValues()).as("nothing before the flush timer").isEmpty();

    harness.setProcessingTime(FLUSH_MS);
    List<VolumeMetricsRow> rows = harness.extractOutputValues();
    assertThat(rows).extracting(r -> r.volumeId + "@" + (r.intervalStartUnixNano - T0) / TEN_S + "=" + r.io.readOps)
        .containsExactlyInAnyOrder("a@1=120", "a@0=50", "b@0=7");
    VolumeMetricsRow a1 = rows.stream().filter(r -> r.volumeId.equals("a") && r.intervalStartUnixNano == T0 + TEN_S)
        .findFirst().orElseThrow();
    assertThat(a1.intervalSeconds).isEqualTo(10.0);
    assertThat(a1.io.readBytes).isEqualTo(120 * 4096);
    assertThat(a1.capacityBytes).isEqualTo(1 << 30);
    assertThat(a1.occupancyBytes).isEqualTo(1 << 29);

    VolumeIoStatsRow a = ioStats().stream().filter(r -> r.volumeId.equals("a")).findFirst().orElseThrow();
    assertThat(a.io.readOps).isEqualTo(170);
    assertThat(a.io.cacheHits).isEqualTo(50 + 25 + 10);
    assertThat(a.firstIntervalUnixNano).isEqualTo(T0);
    assertThat(a.lastIntervalUnixNano).isEqualTo(T0 + TEN_S);
    assertThat(a.capacityBytes).as("capacity of the latest interval, not the latest record").isEqualTo(1 << 30);
    assertThat(blockSizes()).extracting(r -> r.volumeId + "/" + r.direction + "/" + r.binLabel + "=" + r.ops + "," + r.bytes)
        .containsExactlyInAnyOrder("a/read/4096=170,696320", "b/read/4096=7,28672");
  }

  @Test
  void anIntervalRowCarriesTheDocumentsOfItsVolumesTenSecondWindow() throws Exception {
    IntervalMetrics first = record("a", 0, 100, 0);
    first.latency.add(false, 4, counts(LatencyHistograms.BUCKETS, 6, 100));
    first.workload.add(WorkloadHistograms.Family.OUTSTANDING, 0, counts(WorkloadHistograms.Family.OUTSTANDING.buckets(), 2, 100));
    first.cpu.hostMicros[CpuTimes.hostMode("system")] = 7_000;
    first.cpu.hostWallMicros = 10_000_000;
    IntervalMetrics rest = record("a", 0, 20, 0); // the rest of the interval (split batch)
    rest.latency.add(false, 4, counts(LatencyHistograms.BUCKETS, 9, 20));
    rest.sources.ops[SourceIo.slot(SourceIo.sourceIndex("peer"), true)] = 5;
    rest.sources.addLatency(SourceIo.sourceIndex("peer"), true, counts(LatencyHistograms.BUCKETS, 8, 5));
    harness.processElement(first, 0);
    harness.processElement(rest, 0);
    harness.setProcessingTime(FLUSH_MS);

    RollupCell window = new RollupCell(); // what RollupFunction's 10 s window of the volume held
    window.add(first);
    window.add(rest);
    VolumeMetricsRow row = harness.extractOutputValues().get(0);
    assertThat(Json.latency(row.latency)).contains("\"4096\"").isEqualTo(Json.latency(window.latency));
    assertThat(Json.sources(row.sources)).contains("peer").isEqualTo(Json.sources(window.sources));
    assertThat(Json.workload(row.workload)).contains("outstanding").isEqualTo(Json.workload(window.workload));
    assertThat(Json.cpu(row.cpu)).contains("7000").isEqualTo(Json.cpu(window.cpu));
  }

  /** {@code length} bucket counts, {@code count} in bucket {@code bucket}. */
  private static long[] counts(int length, int bucket, long count) {
    long[] counts = new long[length];
    counts[bucket] = count;
    return counts;
  }

  @Test
  void aLaterRecordOfAnOpenIntervalRewritesItWhole() throws Exception {
    harness.processElement(record("a", 0, 100, 1 << 30), 0);
    harness.setProcessingTime(FLUSH_MS);
    harness.getOutput().clear();
    harness.getSideOutput(MetricsRollupFunction.IO_STATS).clear();

    harness.setProcessingTime(5_000);
    harness.processElement(record("a", 0, 30, 1 << 30), 5_000);
    harness.setProcessingTime(5_000 + FLUSH_MS);
    assertThat(harness.extractOutputValues()).extracting(r -> r.io.readOps).containsExactly(130L);
    assertThat(ioStats()).extracting(r -> r.io.readOps).containsExactly(130L);
  }

  @Test
  void aRecordOfAClosedIntervalCountsInTheTotalsButNeverRewritesItsRow() throws Exception {
    for (int n = 0; n <= 3; n++) {
      harness.processElement(record("a", n, 10, 0), n * 10_000L);
      harness.setProcessingTime(n * 10_000L + FLUSH_MS);
    }
    harness.getOutput().clear();
    harness.processElement(record("a", 1, 5, 0), 40_000); // 2 intervals behind interval 3: still open
    harness.processElement(record("a", 0, 7, 0), 40_000); // 3 behind: its row is final
    harness.setProcessingTime(40_000 + FLUSH_MS);
    assertThat(harness.extractOutputValues()).extracting(r -> (r.intervalStartUnixNano - T0) / TEN_S + "=" + r.io.readOps)
        .containsExactly("1=15");
    assertThat(ioStats()).last().extracting(r -> r.io.readOps).isEqualTo(4 * 10L + 5 + 7);
  }

  /** The chain's checkpointed state of the harness, bytes. */
  private long stateBytes() throws Exception {
    return harness.snapshot(1, harness.getProcessingTime()).getManagedKeyedState().stream()
        .mapToLong(h -> h.getStateSize()).sum();
  }

  @Test
  void aVolumeKeepsItsLastIntervalsAndNoTimerPerIntervalHoweverLongItReports() throws Exception {
    long tenMinutes = 0;
    for (int n = 0; n < 720; n++) { // an interval every 10 s for two hours
      harness.setProcessingTime(n * 10_000L);
      harness.processElement(record("a", n, 10, 0), n * 10_000L);
      harness.setProcessingTime(n * 10_000L + FLUSH_MS);
      if (n == 60) {
        tenMinutes = stateBytes();
      }
    }
    assertThat(harness.numProcessingTimeTimers()).as("the block sizes' coarse write at most").isLessThanOrEqualTo(1);
    assertThat(stateBytes()).as("state after two hours against after ten minutes").isLessThanOrEqualTo(tenMinutes);
  }

  @Test
  void noTimerIsLeftWhenNothingChanged() throws Exception {
    harness.processElement(record("a", 0, 1, 0), 0);
    harness.setProcessingTime(FLUSH_MS + MINUTE_MS);
    harness.getOutput().clear();
    harness.setProcessingTime(10 * MINUTE_MS);
    assertThat(harness.getOutput()).isEmpty();
    assertThat(harness.numProcessingTimeTimers()).isZero();
  }

  @Test
  void writesBlockSizesAtMostOncePerPeriodAndTheLastChangeInTheEnd() throws Exception {
    for (int n = 0; n < 6; n++) { // an interval every 10 s for a minute
      harness.setProcessingTime(n * 10_000L);
      harness.processElement(record("a", n, 10, 0), n * 10_000L);
      harness.setProcessingTime(n * 10_000L + FLUSH_MS);
    }
    assertThat(ioStats()).as("the totals at every interval").hasSize(6);
    assertThat(new CoarseWrites(COARSE_MS).phaseMillis(record("a", 0, 10, 0).volumeKey())).isEqualTo(24_185L);
    assertThat(blockSizes()).extracting(r -> r.ops)
        .as("at 1 s (first), 11 s (the first period shorter by the volume's phase) and 41 s")
        .containsExactly(10L, 20L, 50L);
    harness.setProcessingTime(65_999);
    assertThat(blockSizes()).hasSize(3);
    harness.setProcessingTime(66_000);
    assertThat(blockSizes()).extracting(r -> r.ops).as("the last change, 15 s after its flush at 51 s").containsExactly(10L, 20L, 50L, 60L);
    harness.setProcessingTime(61_000 + MINUTE_MS);
    assertThat(harness.numProcessingTimeTimers()).isZero();
  }
}
