package io.tierwise.jobs.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RollupFunctionTest {
  private static final long FLUSH_MS = 1000;
  private static final long COARSE_MS = 60_000;
  private static final long LATENESS_MS = 3_600_000;
  private static final String TENANT = "3f2a0c1e-8a4b-4c1d-9e2f-0123456789ab";
  /** 2023-11-14T22:00:00Z: a whole hour, so 1 h windows start here. */
  private static final long T0_S = 1_700_000_000L - 1_700_000_000L % 3600;

  private KeyedOneInputStreamOperatorTestHarness<String, ScopedMetrics, RollupRow> harness;

  @BeforeEach
  void open() throws Exception {
    harness = ProcessFunctionTestHarnesses.forKeyedProcessFunction(
        new RollupFunction(FLUSH_MS, COARSE_MS, LATENESS_MS), s -> s.scopeKey, Types.STRING);
    harness.setProcessingTime(0);
  }

  @AfterEach
  void close() throws Exception {
    harness.close();
  }

  /** Volume {@code volume}'s 10 s interval number {@code n}: {@code reads} reads, latencies in bucket {@code bucket}. */
  private static IntervalMetrics interval(String volume, int n, long reads, int bucket, long capacity) {
    IntervalMetrics m = new IntervalMetrics();
    m.tenantId = TENANT;
    m.volumeId = volume;
    m.hostId = "host-1";
    m.intervalStartUnixNano = (T0_S + 10L * n) * 1_000_000_000L;
    m.intervalEndUnixNano = m.intervalStartUnixNano + 10_000_000_000L;
    m.io.readOps = reads;
    m.io.readBytes = reads * 4096;
    long[] buckets = new long[LatencyHistograms.BUCKETS];
    buckets[bucket] = reads;
    m.latency.add(false, 4, buckets);
    m.capacityBytes = capacity;
    m.occupancyBytes = capacity / 2;
    return m;
  }

  private void send(IntervalMetrics m) throws Exception {
    for (ScopedMetrics s : ScopedMetrics.scopesOf(m)) {
      harness.processElement(new StreamRecord<>(s));
    }
  }

  /** The last row written per "scope|scope id|resolution|window start - T0". */
  private Map<String, RollupRow> rows() {
    return harness.extractOutputValues().stream().collect(Collectors.toMap(
        r -> r.scope + "|" + r.scopeId + "|" + r.resolution + "|" + (r.windowStartSeconds - T0_S), Function.identity(), (a, b) -> b));
  }

  @Test
  void sumsCountersAndMergesLatencyHistogramsAtEveryResolutionAndScope() throws Exception {
    for (int n = 0; n < 12; n++) { // two minutes of two volumes
      send(interval("vol-a", n, 10 + n, 6, 1000));
      send(interval("vol-b", n, 100, 9, 5000));
    }
    harness.setProcessingTime(FLUSH_MS);
    Map<String, RollupRow> rows = rows();

    RollupRow tenantMinute = rows.get("tenant|" + TENANT + "|1m|0");
    assertThat(tenantMinute.scopeId).isEqualTo(TENANT);
    assertThat(tenantMinute.io.readOps).isEqualTo((10 + 11 + 12 + 13 + 14 + 15) + 6 * 100);
    assertThat(tenantMinute.volumes).isEqualTo(2);
    assertThat(tenantMinute.capacityBytes).as("latest gauge of each volume, summed").isEqualTo(6000);
    assertThat(tenantMinute.occupancyBytes).isEqualTo(3000);
    assertThat(tenantMinute.latency.cells).containsExactly(
        LatencyHistograms.cell(false, 4, 6), LatencyHistograms.cell(false, 4, 9));
    assertThat(tenantMinute.latency.counts).containsExactly(10 + 11 + 12 + 13 + 14 + 15, 600);

    RollupRow volumeHour = rows.get("volume|vol-a|1h|0");
    assertThat(volumeHour.io.readOps).isEqualTo(12 * 10 + 66);
    RollupRow hostDay = rows.get("host|host-1|1d|" + (Resolutions.windowStart(3, T0_S) - T0_S));
    assertThat(hostDay.scopeId).isEqualTo("host-1");
    assertThat(hostDay.io.readOps).isEqualTo(12 * 10 + 66 + 1200);
    assertThat(rows.keySet()).as("a volume's 10 s window is its interval row (MetricsRollupFunction)")
        .noneMatch(k -> k.startsWith("volume|") && k.contains("|10s|"));
    assertThat(rows.get("host|host-1|10s|110").io.readOps).isEqualTo(21 + 100);
    assertThat(rows.keySet().stream().filter(k -> k.startsWith("tenant|" + TENANT + "|10s|"))).hasSize(12);
    assertThat(rows.keySet()).noneMatch(k -> k.startsWith("cluster|"));
  }

  @Test
  void countsEachVolumeOnceAndSumsItsLatestGaugesInAWindowOfManyVolumes() throws Exception {
    for (int n = 0; n < 6; n++) { // one minute of 100 volumes, the gauges rising each interval
      for (int v = 0; v < 100; v++) {
        send(interval("vol-" + v, n, 1, 6, 1000L * (n + 1)));
      }
    }
    harness.setProcessingTime(FLUSH_MS);
    RollupRow tenantMinute = rows().get("tenant|" + TENANT + "|1m|0");
    assertThat(tenantMinute.volumes).isEqualTo(100);
    assertThat(tenantMinute.capacityBytes).as("each volume's last interval's gauge, summed").isEqualTo(100 * 6000L);
    assertThat(tenantMinute.io.readOps).isEqualTo(600);
  }

  @Test
  void aCellCheckpointedBeforeItsVolumeCountUsesItsArraysWhole() {
    RollupCell cell = new RollupCell();
    cell.volumes = new String[] {"vol-a", "vol-b"};
    cell.gaugeIntervalUnixNano = new long[] {1, 1};
    cell.occupancyBytes = new long[] {10, 20};
    cell.capacityBytes = new long[] {100, 200};
    IntervalMetrics b = interval("vol-b", 0, 1, 6, 400);
    cell.add(b);
    cell.add(interval("vol-c", 0, 1, 6, 800));
    assertThat(cell.volumeCount()).isEqualTo(3);
    assertThat(java.util.Arrays.copyOf(cell.volumes, 3)).containsExactly("vol-a", "vol-b", "vol-c");
    assertThat(java.util.Arrays.copyOf(cell.capacityBytes, 3)).containsExactly(100, 400, 800);
  }

  @Test
  void keepsEachSourcesIosBytesAndLatencyInEveryResolution() throws Exception {
    int peerWrite = SourceIo.slot(SourceIo.sourceIndex("peer"), true);
    int cacheRead = SourceIo.slot(SourceIo.sourceIndex("cache"), false);
    for (int n = 0; n < 12; n++) { // two minutes of one volume of a WB+1 host
      IntervalMetrics m = interval("vol-a", n, 10, 6, 1000);
      m.sources.ops[peerWrite] = n;
      m.sources.bytes[peerWrite] = n * 65536L;
      long[] peerLatency = new long[LatencyHistograms.BUCKETS];
      peerLatency[8 + n % 2] = n;
      m.sources.addLatency(SourceIo.sourceIndex("peer"), true, peerLatency);
      m.sources.ops[cacheRead] = 7;
      send(m);
    }
    harness.setProcessingTime(FLUSH_MS);
    Map<String, RollupRow> rows = rows();
    long day = Resolutions.windowStart(3, T0_S) - T0_S;
    assertThat(rows.get("volume|vol-a|1m|0").sources.ops[peerWrite]).as("intervals 0..5").isEqualTo(15);
    assertThat(rows.get("host|host-1|1m|60").sources.bytes[peerWrite]).as("intervals 6..11").isEqualTo(51 * 65536L);
    for (String key : List.of("volume|vol-a|1h|0", "host|host-1|1h|0", "tenant|" + TENANT + "|1d|" + day)) {
      SourceIo s = rows.get(key).sources;
      assertThat(s.ops[peerWrite]).as(key).isEqualTo(66);
      assertThat(s.bytes[peerWrite]).as(key).isEqualTo(66 * 65536L);
      assertThat(s.latencyOf(peerWrite)[8]).as(key + ": even intervals").isEqualTo(0 + 2 + 4 + 6 + 8 + 10);
      assertThat(s.latencyOf(peerWrite)[9]).as(key + ": odd intervals").isEqualTo(1 + 3 + 5 + 7 + 9 + 11);
      assertThat(s.ops[cacheRead]).as(key).isEqualTo(12 * 7);
    }
    assertThat(rows.get("host|host-1|10s|50").sources.ops[peerWrite]).isEqualTo(5);
    assertThat(rows.get("host|host-1|10s|0").sources.isEmpty(peerWrite)).as("interval 0 sent nothing to peers").isTrue();
  }

  @Test
  void rewritesAWindowWithItsCompleteValueAndDropsIntervalsBeyondTheLateness() throws Exception {
    send(interval("vol-a", 0, 10, 6, 0));
    harness.setProcessingTime(FLUSH_MS);
    send(interval("vol-a", 1, 5, 6, 0));
    harness.setProcessingTime(FLUSH_MS + COARSE_MS);
    List<RollupRow> minute = harness.extractOutputValues().stream()
        .filter(r -> r.scope.equals("volume") && r.resolution.equals("1m")).toList();
    assertThat(minute).extracting(r -> r.io.readOps).as("complete values, not increments").containsExactly(10L, 15L);

    send(interval("vol-a", 2 * 360 + 6, 1, 6, 0)); // two hours later
    send(interval("vol-a", 2, 99, 6, 0)); // more than an hour behind: late
    harness.setProcessingTime(2 * FLUSH_MS + 2 * COARSE_MS);
    assertThat(harness.extractOutputValues().stream()
        .filter(r -> r.scope.equals("volume") && r.resolution.equals("1m") && r.windowStartSeconds == T0_S))
        .as("the late interval does not overwrite the closed window").hasSize(2);
  }

  @Test
  void keepsFineWindowsOpenForThirtyWindowsAndCountsALateIntervalInTheCoarserOnes() throws Exception {
    send(interval("vol-a", 40, 7, 6, 0)); // 400 s in
    send(interval("vol-a", 0, 3, 6, 0)); // 400 s behind: past the 10 s windows' 5 min, within the others'
    harness.setProcessingTime(FLUSH_MS);
    Map<String, RollupRow> rows = rows();
    assertThat(rows).as("no partial 10 s window for the late interval").doesNotContainKey("tenant|" + TENANT + "|10s|0");
    assertThat(rows.get("tenant|" + TENANT + "|1m|0").io.readOps).isEqualTo(3);
    assertThat(rows.get("host|host-1|1h|0").io.readOps).isEqualTo(3 + 7);
    assertThat(rows.get("tenant|" + TENANT + "|1h|0").io.readOps).isEqualTo(3 + 7);
  }

  @Test
  void keepsAVolumesWindowsOpenForTwoWindowsItsIntervalsComingInOrder() throws Exception {
    send(interval("vol-a", 40, 7, 6, 0)); // 400 s in
    send(interval("vol-a", 38, 5, 6, 0)); // 20 s behind: within two 10 s windows
    send(interval("vol-a", 0, 3, 6, 0)); // 400 s behind: past the 10 s and 1 min windows' two, within the 1 h window's
    harness.setProcessingTime(FLUSH_MS);
    Map<String, RollupRow> rows = rows();
    assertThat(rows.get("volume|vol-a|1m|360").io.readOps).isEqualTo(5 + 7);
    assertThat(rows).doesNotContainKey("volume|vol-a|1m|0");
    assertThat(rows.get("volume|vol-a|1h|0").io.readOps).isEqualTo(3 + 5 + 7);
    assertThat(rows.get("tenant|" + TENANT + "|1m|0").io.readOps).as("other scopes keep 30 windows").isEqualTo(3);
  }

  @Test
  void boundsTheStateOfAScopeWhateverItsAge() throws Exception {
    for (int n = 0; n < 720; n++) { // 2 h of intervals
      send(interval("vol-a", n, 1, 6, 0));
      harness.setProcessingTime((n + 1) * FLUSH_MS);
    }
    int scopes = ScopedMetrics.scopesOf(interval("vol-a", 0, 1, 6, 0)).length;
    // Per scope: 30 + 1 windows of 10 s, of 1 min, 2 of 1 h, 1 of 1 d, the clock, the pending
    // flush, the last coarse write and its timer; the volume's 2 + 1 of 1 min (no 10 s windows: its
    // interval row is); not 2 h of windows.
    assertThat(harness.numKeyedStateEntries()).isLessThanOrEqualTo((scopes - 1) * (31 + 31 + 2 + 1 + 4) + (3 + 2 + 1 + 4));
    assertThat(rows().get("volume|vol-a|1h|3600").io.readOps).as("the 1 h windows stay whole").isEqualTo(360);
  }

  @Test
  void writesACoarseWindowWhenItClosesAndOtherwiseOncePerPeriod() throws Exception {
    for (int n = 0; n < 18; n++) { // three minutes of one volume, an interval every 10 s
      harness.setProcessingTime(n * 10_000L);
      send(interval("vol-a", n, 1 + n, 6, 0));
      harness.setProcessingTime(n * 10_000L + FLUSH_MS);
      if (n == 5) {
        assertThat(rows().get("volume|vol-a|1m|0").io.readOps)
            .as("minute 0 written as it closed (interval 5 ends it), not a period later").isEqualTo(1 + 2 + 3 + 4 + 5 + 6);
      }
    }
    harness.setProcessingTime(400_000);
    List<RollupRow> volumeRows = harness.extractOutputValues().stream().filter(r -> r.scope.equals("volume")).toList();
    assertThat(harness.extractOutputValues().stream().filter(r -> r.scope.equals("host") && r.resolution.equals("10s")))
        .as("every 10 s window once").hasSize(18);
    assertThat(volumeRows.stream().filter(r -> r.resolution.equals("1h")))
        .as("the 1 h window at 1 s (first), 61, 121 and 181 s (the last change)")
        .extracting(r -> r.io.readOps).containsExactly(1L, 1L + 2 + 3 + 4 + 5 + 6 + 7, 28L + 8 + 9 + 10 + 11 + 12 + 13, 171L);
    assertThat(volumeRows.stream().filter(r -> r.resolution.equals("1m")).count())
        .as("each 1 min window at most twice, not six times").isLessThanOrEqualTo(3 + 3);
    assertThat(rows().get("volume|vol-a|1m|120").io.readOps).isEqualTo(13 + 14 + 15 + 16 + 17 + 18);
    assertThat(harness.numProcessingTimeTimers()).as("no timer left once all is written").isZero();
  }

  @Test
  void writesTheCoarseWindowsOfAScopeThatWentQuietSoonNotAPeriodLater() throws Exception {
    for (int n = 0; n < 3; n++) {
      harness.setProcessingTime(n * 10_000L);
      send(interval("vol-a", n, 1 + n, 6, 0));
      harness.setProcessingTime(n * 10_000L + FLUSH_MS);
    }
    harness.setProcessingTime(20_000 + FLUSH_MS + 15_000);
    assertThat(harness.extractOutputValues().stream().filter(r -> r.scope.equals("volume") && r.resolution.equals("1h")))
        .as("first at 1 s, then 15 s after the last flush").extracting(r -> r.io.readOps).containsExactly(1L, 6L);
    assertThat(harness.numProcessingTimeTimers()).isZero();
  }
}
