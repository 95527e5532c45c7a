package io.tierwise.jobs.workingset.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.tierwise.jobs.JobSettings;
import io.tierwise.jobs.pacing.CoarseWrites;
import io.tierwise.jobs.recommend.Recommendation;
import io.tierwise.jobs.testing.RecommendStep;
import io.tierwise.jobs.workingset.estimate.MrcEstimators;
import io.tierwise.jobs.workingset.estimate.ShardsEstimator;
import io.tierwise.jobs.workingset.estimate.WindowEstimate;
import io.tierwise.jobs.workingset.estimate.WindowedEstimators;
import java.util.List;
import java.util.function.Supplier;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * {@link SharedTierWorkingSetFunction} in Flink's operator test harness: references wait until every
 * volume of the cluster has sent past them, an idle volume stops holding them after the timeout,
 * rows carry the cluster id and the count of volumes, and the state survives a snapshot and restore;
 * a host's volumes share its tier in the same way, keyed and stamped by the host, and a host's
 * batches that carry the agent's shares of its tier are added up at once.
 */
class SharedTierWorkingSetFunctionTest {
  private static final long FLUSH_MS = 1000;
  private static final long IDLE_MS = 30_000;
  private static final long HOLD_BACK_MS = 100;
  private static final String TENANT = "3f2a0c1e-8a4b-4c1d-9e2f-0123456789ab";
  private static final long T0 = 1_700_000_000_000_000_000L;

  private static KeyedOneInputStreamOperatorTestHarness<String, ReferenceBatchEvent, VolumeAnalysis> harness(
      OperatorSubtaskState restoreFrom) throws Exception {
    return harness(restoreFrom, SharedTier.CLUSTER);
  }

  private static KeyedOneInputStreamOperatorTestHarness<String, ReferenceBatchEvent, VolumeAnalysis> harness(
      OperatorSubtaskState restoreFrom, SharedTier tier) throws Exception {
    var h = new KeyedOneInputStreamOperatorTestHarness<>(
        new KeyedProcessOperator<>(
            new SharedTierWorkingSetFunction(FLUSH_MS, FLUSH_MS, IDLE_MS, IDLE_MS, HOLD_BACK_MS, MrcEstimators.DEFAULT, tier)),
        tier::key, Types.STRING);
    if (restoreFrom != null) {
      h.initializeState(restoreFrom);
    }
    h.open();
    return h;
  }

  /** 100 rate-1 reads of blocks 0..99 of volume {@code volume}, 1 ms apart from {@code startMs}. */
  private static ReferenceBatchEvent batch(String volume, long seq, long startMs) {
    ReferenceBatchEvent e = new ReferenceBatchEvent();
    e.tenantId = TENANT;
    e.volumeId = volume;
    e.hostId = "host-" + volume;
    e.clusterId = "c1";
    e.batchId = volume + "-" + seq;
    e.sequence = seq;
    e.samplingModulus = 1 << 24;
    e.samplingThreshold = 1 << 24;
    e.baseTimeUnixNano = T0 + startMs * 1_000_000L;
    e.blockHashes = new long[100];
    e.writes = new boolean[100];
    e.timeOffsetsMicros = new long[100];
    e.lengthBlocks = new int[100];
    for (int i = 0; i < 100; i++) {
      e.blockHashes[i] = i;
      e.timeOffsetsMicros[i] = i * 1000L;
      e.lengthBlocks[i] = 1;
    }
    return e;
  }

  /**
   * The recommendation of the latest recommendation-window estimate {@code h} emitted, through the
   * job's recommendation step.
   */
  private static Recommendation latestRecommendation(
      KeyedOneInputStreamOperatorTestHarness<String, ReferenceBatchEvent, VolumeAnalysis> h) throws Exception {
    WindowEstimate day = RecommendStep.values(h.getSideOutput(WorkingSetFunction.RECOMMENDATION_ESTIMATES)).stream()
        .reduce((a, b) -> b).orElseThrow();
    assertThat(day.windowName).isEqualTo(VolumeAnalysis.RECOMMENDATION_WINDOW);
    return RecommendStep.of(List.of(day), false).stream().findFirst().orElse(null);
  }

  private static VolumeAnalysis latestAll(List<VolumeAnalysis> out) {
    return out.stream().filter(a -> a.windowName.equals(WindowedEstimators.ALL)).reduce((a, b) -> b).orElseThrow();
  }

  @Test
  void aSteadyTiersResultsAreWrittenOncePerCoarsePeriodAndItsLastSoonAfterItGoesQuiet() throws Exception {
    try (var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(
        new SharedTierWorkingSetFunction(FLUSH_MS, 60_000, IDLE_MS, IDLE_MS, HOLD_BACK_MS, MrcEstimators.DEFAULT,
            SharedTier.CLUSTER)),
        SharedTier.CLUSTER::key, Types.STRING)) {
      h.open();
      // Two volumes, a batch each every 10 s for 2 minutes, then nothing.
      List<Long> emittedAt = new java.util.ArrayList<>();
      int emitted = 0;
      for (long t = 0; t <= 240_000; t += 1000) {
        h.setProcessingTime(t);
        if (t % 10_000 == 0 && t < 120_000) {
          h.processElement(batch("v1", t / 10_000, t), t);
          h.processElement(batch("v2", t / 10_000, t), t);
        }
        long all = h.extractOutputValues().stream().filter(a -> a.windowName.equals(WindowedEstimators.ALL)).count();
        if (all > emitted) {
          emittedAt.add(t / 1000);
          emitted = (int) all;
        }
      }
      // The first results (both volumes past the hold-back at 10 s) at once, then once a period,
      // the first shorter by the tier's phase (at 47 s, 107 s); the release of the last batches
      // (flushed at 111 s) 15 s after that flush; what the hold-back kept is released at the idle
      // timeout (140 s) and written 15 s after.
      assertThat(new CoarseWrites(60_000).phaseMillis(SharedTier.CLUSTER.key(batch("v1", 0, 0)))).isEqualTo(24_573L);
      assertThat(emittedAt).containsExactly(11L, 47L, 107L, 126L, 156L);
      assertThat(latestAll(h.extractOutputValues()).sampledReferences).as("every reference").isEqualTo(24 * 100);
    }
  }

  /**
   * Minute {@code minute} of volume {@code volume} of host h1: 100 reads 600 ms apart from the
   * volume's first I/O (v2's 5 s after v1's), as an agent sends a quiet volume's batch.
   */
  private static ReferenceBatchEvent minuteBatch(String volume, int minute) {
    ReferenceBatchEvent b = batch(volume, minute, 60_000L * minute + (volume.equals("v2") ? 5_000 : 0));
    b.hostId = "h1";
    for (int i = 0; i < 100; i++) {
      b.timeOffsetsMicros[i] = i * 600_000L;
      b.blockHashes[i] = (minute * 37 + i) % 150;
    }
    return b;
  }

  @Test
  void volumesThatSendAMinuteOfReferencesAtATimeInStepLoseNoneAndKeepTheirOrder() throws Exception {
    // As an agent's volumes started together send (proto/METRICS.md): a minute of references each,
    // all ended by the same 10-s interval's close, one request every 70 s and nothing between;
    // v2's batches overlap v1's next ones. With the job's timeouts (TierwiseJobs).
    long gap = JobSettings.SEQUENCE_GAP_TIMEOUT.toMillis();
    long idle = JobSettings.SHARED_TIER_IDLE_TIMEOUT.toMillis();
    Supplier<KeyedProcessOperator<String, ReferenceBatchEvent, VolumeAnalysis>> operator = () ->
        new KeyedProcessOperator<>(new SharedTierWorkingSetFunction(FLUSH_MS, FLUSH_MS, gap, idle, gap,
            MrcEstimators.DEFAULT, SharedTier.HOST));
    try (var paced = new KeyedOneInputStreamOperatorTestHarness<>(operator.get(), SharedTier.HOST::key, Types.STRING);
        var atOnce = new KeyedOneInputStreamOperatorTestHarness<>(operator.get(), SharedTier.HOST::key, Types.STRING)) {
      paced.open();
      atOnce.open();
      int minutes = 6;
      for (long t = 0; t <= 70_000L * minutes + idle + 2 * FLUSH_MS; t += 1000) {
        paced.setProcessingTime(t);
        if (t > 0 && t % 70_000 == 0 && t / 70_000 <= minutes) {
          for (String volume : List.of("v1", "v2")) {
            paced.processElement(minuteBatch(volume, (int) (t / 70_000) - 1), t);
          }
        }
        if (t == 70_000 + gap + 2 * FLUSH_MS) {
          assertThat(latestAll(paced.extractOutputValues()).sampledReferences)
              .as("quiet: what both volumes sent past, v1's first minute and v2's up to v1's latest (59.4 s)")
              .isEqualTo(100 + 91);
        }
      }
      for (int minute = 0; minute < minutes; minute++) {
        for (String volume : List.of("v1", "v2")) {
          atOnce.processElement(minuteBatch(volume, minute), 0);
        }
      }
      atOnce.setProcessingTime(idle + 2 * FLUSH_MS);
      VolumeAnalysis all = latestAll(paced.extractOutputValues());
      assertThat(all.sampledReferences).as("every reference").isEqualTo(2 * minutes * 100);
      assertThat(all.mrcMissRatios).as("the order of the stream sent at once")
          .containsExactly(latestAll(atOnce.extractOutputValues()).mrcMissRatios);
    }
  }

  @Test
  void mergesTheVolumesInTimeOrderAndSurvivesARestore() throws Exception {
    var h = harness(null);
    h.setProcessingTime(0);
    h.processElement(batch("v1", 0, 0), 0);      // 0..99 ms
    h.processElement(batch("v2", 0, 50), 0);     // 50..149 ms
    h.processElement(batch("v1", 1, 200), 0);    // 200..299 ms: every volume is past 49 ms + 100 ms
    h.setProcessingTime(FLUSH_MS);
    VolumeAnalysis first = latestAll(h.extractOutputValues());
    assertThat(first.clusterId).isEqualTo("c1");
    assertThat(first.volumeId).isNull();
    assertThat(first.tenantId).isEqualTo(TENANT);
    assertThat(first.volumes).isEqualTo(2);
    assertThat(first.sampledReferences).as("v1's up to 49 ms").isEqualTo(50);

    OperatorSubtaskState snapshot = h.snapshot(1, 1);
    h.close();
    var restored = harness(snapshot);
    restored.setProcessingTime(2 * FLUSH_MS);
    restored.processElement(batch("v2", 1, 300), 2 * FLUSH_MS);  // 300..399 ms: up to 199 ms goes
    restored.setProcessingTime(3 * FLUSH_MS);
    VolumeAnalysis second = latestAll(restored.extractOutputValues());
    assertThat(second.sampledReferences).as("both first batches, queued through the restore").isEqualTo(200);
    // The two volumes' blocks 0..99 are 200 different blocks of the shared tier.
    assertThat(second.wssBytes).isEqualTo(200 * ShardsEstimator.BLOCK_BYTES);
    // No batch for the idle timeout: the rest is released without waiting.
    restored.setProcessingTime(2 * FLUSH_MS + IDLE_MS);
    restored.setProcessingTime(3 * FLUSH_MS + IDLE_MS);
    assertThat(latestAll(restored.extractOutputValues()).sampledReferences).isEqualTo(400);
    restored.close();
  }

  @Test
  void recommendsTheSharedTierFromTheMergedStreamWithEveryPolicysCurve() throws Exception {
    var h = harness(null);
    // Two volumes reading their blocks 0..99 six times each: 1,200 references of 200 shared-tier blocks.
    for (long seq = 0; seq < 6; seq++) {
      h.processElement(batch("v1", seq, seq * 100), 0);
      h.processElement(batch("v2", seq, seq * 100), 0);
    }
    h.setProcessingTime(IDLE_MS);
    h.setProcessingTime(IDLE_MS + FLUSH_MS);
    List<VolumeAnalysis> out = h.extractOutputValues();
    VolumeAnalysis all = latestAll(out);
    assertThat(all.evictions).containsExactly("lru", "s3-fifo", "arc", "2q", "sieve");
    assertThat(List.of(all.evictionMissRatios)).hasSize(5)
        .allSatisfy(curve -> assertThat(curve).hasSameSizeAs(all.mrcCacheBytes));
    Recommendation day = latestRecommendation(h);
    assertThat(day).isNotNull();
    assertThat(day.clusterId).isEqualTo("c1");
    assertThat(day.volumeId).isNull();
    assertThat(day.volumes).isEqualTo(2);
    assertThat(day.policy).as("reads only").isEqualTo("write-through");
    // Only the first reference of each of the 200 blocks misses a tier that holds them all.
    assertThat(day.achievableHitRatio).isCloseTo(1 - 200.0 / 1200, org.assertj.core.api.Assertions.within(1e-9));
    h.close();
  }

  @Test
  void aHostsVolumesShareItsTierKeyedAndStampedByTheHost() throws Exception {
    var h = harness(null, SharedTier.HOST);
    for (long seq = 0; seq < 6; seq++) {
      for (String volume : List.of("v1", "v2")) {
        ReferenceBatchEvent b = batch(volume, seq, seq * 100);
        b.hostId = "h1";
        b.clusterId = null;
        h.processElement(b, 0);
      }
    }
    h.setProcessingTime(IDLE_MS);
    h.setProcessingTime(IDLE_MS + FLUSH_MS);
    List<VolumeAnalysis> out = h.extractOutputValues();
    VolumeAnalysis all = latestAll(out);
    assertThat(all.hostId).isEqualTo("h1");
    assertThat(all.clusterId).isNull();
    assertThat(all.volumes).isEqualTo(2);
    assertThat(all.wssBytes).isEqualTo(200 * ShardsEstimator.BLOCK_BYTES);
    Recommendation day = latestRecommendation(h);
    assertThat(day.hostId).isEqualTo("h1");
    assertThat(day.clusterId).isNull();
    assertThat(SharedTier.HOST.id(day.clusterId, day.hostId)).isEqualTo("h1");
    h.close();
  }

  @Test
  void aHostsBatchesWithTheAgentsSharesOfItsTierAreAddedAtOnceAndSurviveARestore() throws Exception {
    var h = harness(null, SharedTier.HOST);
    for (String volume : List.of("v1", "v2")) {
      ReferenceBatchEvent b = ClusterStreamTest.withShares(batch(volume, 0, 0), 7, 100);
      b.hostId = "h1";
      h.processElement(b, 0);
    }
    h.setProcessingTime(FLUSH_MS);
    VolumeAnalysis all = latestAll(h.extractOutputValues());
    assertThat(all.volumes).isEqualTo(2);
    assertThat(all.wssBytes).as("no hold-back: both volumes' shares at the first flush")
        .isEqualTo(200 * ShardsEstimator.BLOCK_BYTES);
    OperatorSubtaskState snapshot = h.snapshot(1, FLUSH_MS);
    h.close();
    var restored = harness(snapshot, SharedTier.HOST);
    restored.setProcessingTime(FLUSH_MS);
    ReferenceBatchEvent next = ClusterStreamTest.withShares(batch("v1", 1, 100), 7, 50);
    next.hostId = "h1";
    restored.processElement(next, FLUSH_MS);
    restored.setProcessingTime(10 * FLUSH_MS);
    assertThat(latestAll(restored.extractOutputValues()).wssBytes).as("the same sample goes on")
        .isEqualTo(250 * ShardsEstimator.BLOCK_BYTES);
    restored.close();
  }
}
