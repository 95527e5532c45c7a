package io.tierwise.jobs.workingset.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tierwise.jobs.metrics.IoLengthBins;
import io.tierwise.jobs.metrics.MeasuredLatency;
import io.tierwise.jobs.metrics.SourceIo;
import io.tierwise.jobs.pacing.CoarseWrites;
import io.tierwise.jobs.pacing.LongWindowWrites;
import io.tierwise.jobs.recommend.Recommendation;
import io.tierwise.jobs.testing.RecommendStep;
import io.tierwise.jobs.workingset.estimate.IoProfile;
import io.tierwise.jobs.workingset.estimate.MissRatioCurve;
import io.tierwise.jobs.workingset.estimate.MrcEstimator;
import io.tierwise.jobs.workingset.estimate.MrcEstimators;
import io.tierwise.jobs.workingset.estimate.ShardsFixedSize;
import io.tierwise.jobs.workingset.estimate.WindowEstimate;
import io.tierwise.jobs.workingset.estimate.WindowShares;
import io.tierwise.jobs.workingset.estimate.WindowedEstimators;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WorkingSetFunctionTest {
  private static final long FLUSH_MS = 1000;
  private static final long GAP_MS = 30_000;
  private static final long COARSE_MS = 60_000;
  private static final String TENANT = "3f2a0c1e-8a4b-4c1d-9e2f-0123456789ab";
  private static final long T0 = 1_700_000_000_000_000_000L;

  private KeyedTwoInputStreamOperatorTestHarness<String, ReferenceBatchEvent, VolumeLatency, VolumeAnalysis> harness;

  @BeforeEach
  void open() throws Exception {
    harness = ProcessFunctionTestHarnesses.forKeyedCoProcessFunction(
        new WorkingSetFunction(FLUSH_MS, FLUSH_MS, GAP_MS, 4, MrcEstimators.DEFAULT), ReferenceBatchEvent::volumeKey,
        VolumeLatency::volumeKey, Types.STRING);
    harness.setProcessingTime(0);
  }

  @AfterEach
  void close() throws Exception {
    harness.close();
  }

  /** Batch {@code seq} of 500 rate-1 references over 300 blocks (reads and writes), 1 s apart. */
  private static ReferenceBatchEvent batch(long seq, long seed) {
    Random random = new Random(seed);
    ReferenceBatchEvent e = new ReferenceBatchEvent();
    e.tenantId = TENANT;
    e.volumeId = "vol";
    e.hostId = "host";
    e.batchId = "b" + seq;
    e.sequence = seq;
    e.samplingModulus = 1;
    e.samplingThreshold = 1;
    e.baseTimeUnixNano = T0 + seed * 1_000_000_000L;
    e.blockHashes = new long[500];
    e.writes = new boolean[500];
    e.timeOffsetsMicros = new long[500];
    e.lengthBlocks = new int[500];
    for (int i = 0; i < 500; i++) {
      e.blockHashes[i] = random.nextInt(300);
      e.writes[i] = random.nextInt(4) == 0;
      e.timeOffsetsMicros[i] = i * 1000L;
      e.lengthBlocks[i] = 1 + i % 16;
    }
    return e;
  }

  private static ShardsFixedSize inOrder(ReferenceBatchEvent... batches) {
    ShardsFixedSize s = new ShardsFixedSize(1, 1, ShardsFixedSize.DEFAULT_MAX_SAMPLES);
    for (ReferenceBatchEvent b : batches) {
      for (int i = 0; i < b.size(); i++) {
        s.reference(b.blockHashes[i], b.writes[i]);
      }
    }
    return s;
  }

  /** The recommendation window's estimates emitted. */
  private List<WindowEstimate> estimates() {
    return RecommendStep.values(harness.getSideOutput(WorkingSetFunction.RECOMMENDATION_ESTIMATES));
  }

  /** The emitted rows of the window 'all'. */
  private List<VolumeAnalysis> all() {
    return harness.extractOutputValues().stream().filter(a -> a.windowName.equals(WindowedEstimators.ALL)).toList();
  }

  /**
   * A volume sending a batch every 10 s (the agent's interval) until {@code batchesUntilMs}, then
   * nothing, stepped each second to {@code endMs} with a 60 s coarse period: when ('1h') and
   * ('all') rows were emitted, s; asserts that the last holds every batch and no timer is left.
   */
  private static Map<String, List<Long>> steadyVolume(long batchesUntilMs, long endMs) throws Exception {
    Map<String, List<Long>> at = Map.of("1h", new ArrayList<>(), WindowedEstimators.ALL, new ArrayList<>());
    try (var h = ProcessFunctionTestHarnesses.forKeyedCoProcessFunction(
        new WorkingSetFunction(FLUSH_MS, COARSE_MS, GAP_MS, 4, MrcEstimators.DEFAULT), ReferenceBatchEvent::volumeKey,
        VolumeLatency::volumeKey, Types.STRING)) {
      for (long t = 0; t <= endMs; t += 1000) {
        h.setProcessingTime(t);
        if (t % 10_000 == 0 && t < batchesUntilMs) {
          h.processElement1(batch(t / 10_000, t / 10_000), t);
        }
        for (var window : at.entrySet()) {
          if (h.extractOutputValues().stream().filter(a -> a.windowName.equals(window.getKey())).count() > window.getValue().size()) {
            window.getValue().add(t / 1000);
          }
        }
      }
      assertThat(RecommendStep.values(h.getSideOutput(WorkingSetFunction.RECOMMENDATION_ESTIMATES)))
          .as("the recommendation's estimate at every coarse write").hasSize(at.get("1h").size());
      List<VolumeAnalysis> all = h.extractOutputValues().stream().filter(a -> a.windowName.equals(WindowedEstimators.ALL)).toList();
      assertThat(all.get(all.size() - 1).sampledReferences).as("the last emission holds every batch")
          .isEqualTo(batchesUntilMs / 10_000 * 500);
      assertThat(h.numProcessingTimeTimers()).as("no timer left").isZero();
    }
    return at;
  }

  @Test
  void aSteadyVolumesResultsAreWrittenOncePerCoarsePeriodAndItsLastSoonAfterItGoesQuiet() throws Exception {
    // For 3 minutes, then nothing.
    Map<String, List<Long>> at = steadyVolume(180_000, 240_000);
    // The first results at once; then once a period (not 18 times), the first period shorter by
    // the volume's phase (so only the next flush, at 11 s, waits for it); the last batch's
    // (processed at 170 s) 15 s after its flush at 171 s, not a period later. A young volume's long
    // windows with them.
    assertThat(new CoarseWrites(COARSE_MS).phaseMillis(batch(0, 0).volumeKey())).isEqualTo(53_279L);
    assertThat(at.get("1h")).containsExactly(1L, 11L, 71L, 131L, 186L);
    assertThat(at.get(WindowedEstimators.ALL)).isEqualTo(at.get("1h"));
  }

  @Test
  void aMatureVolumesLongWindowsAreWrittenOncePerTenPeriodsAndTheirLastSoonAfterItGoesQuiet() throws Exception {
    // For 18 minutes and 20 s, then nothing.
    Map<String, List<Long>> at = steadyVolume(1_100_000, 1_300_000);
    // The 1 h window once a period, as a young volume's (above). The long windows with it for the
    // volume's first ten periods (its youth, to 600 s); then once per ten periods from the
    // youth's end, the first shorter by the volume's phase of those (593.279 s: due at 606.7 s),
    // and the last once the volume has been quiet for twice the longest gap between its batches
    // (10 s): 20 s after the last flush (1,091 s), not ten periods later.
    Long[] young = {1L, 11L, 71L, 131L, 191L, 251L, 311L, 371L, 431L, 491L, 551L};
    assertThat(at.get("1h")).startsWith(young).contains(611L).endsWith(971L, 1031L, 1091L).hasSize(20);
    assertThat(new CoarseWrites(LongWindowWrites.COARSE_PERIODS * COARSE_MS).phaseMillis(batch(0, 0).volumeKey()))
        .isEqualTo(593_279L);
    assertThat(at.get(WindowedEstimators.ALL)).startsWith(young).endsWith(551L, 607L, 1111L).hasSize(young.length + 2);
  }

  @Test
  void outOfOrderBatchesGiveTheInOrderResultInOneEmission() throws Exception {
    ReferenceBatchEvent[] b = {batch(0, 0), batch(1, 1), batch(2, 2), batch(3, 3)};
    harness.processElement1(b[2], 0);
    harness.processElement1(b[0], 0);
    harness.processElement1(b[3], 0);
    harness.processElement1(b[1], 0);
    assertThat(harness.extractOutputValues()).isEmpty();

    harness.setProcessingTime(FLUSH_MS);
    List<VolumeAnalysis> out = harness.extractOutputValues();
    assertThat(out).extracting(v -> v.windowName).containsExactly("all", "1h", "24h", "7d");
    assertThat(out).extracting(v -> v.method).containsOnly(MrcEstimator.METHOD_FIXED_SIZE);
    // The 4 s of references are within every window: all four agree.
    for (VolumeAnalysis w : out) {
      assertThat(w.mrcMissRatios).containsExactly(out.get(0).mrcMissRatios);
      assertThat(w.stateBytes).isPositive().isEqualTo(out.get(0).stateBytes);
    }
    assertThat(estimates()).extracting(e -> e.windowName).containsExactly("24h");
    List<Recommendation> recommended = RecommendStep.of(estimates(), true);
    assertThat(recommended).extracting(r -> r.windowName).containsExactly("24h");
    VolumeAnalysis a = out.get(0);
    ShardsFixedSize expected = inOrder(b);
    assertThat(a.sampledReferences).isEqualTo(2000);
    assertThat(a.wssBytes).isEqualTo(expected.workingSetBytes()).isEqualTo(expected.sampledBlocks() * 4096L);
    assertThat(a.wssReadBytes).isEqualTo(expected.readWorkingSetBytes());
    assertThat(a.wssWriteBytes).isEqualTo(expected.writeWorkingSetBytes());
    assertThat(a.mrcMissRatios).containsExactly(expected.missRatioCurve(a.mrcCacheBytes).missRatios());
    assertThat(a.mrcCacheBytes).containsExactly(MissRatioCurve.cacheSizeGrid(a.wssBytes));
    assertThat(a.windowStartUnixNano).isEqualTo(T0);
    assertThat(a.windowEndUnixNano).isEqualTo(T0 + 3_000_000_000L + 499_000_000L);
    assertThat(a.samplingRate).isEqualTo(1.0);
    // At most 300 blocks fit in 4 MiB: every re-reference hits, only first references miss.
    assertThat(a.mrcMissRatios[0]).isCloseTo(expected.sampledBlocks() / 2000.0, within(1e-12));
    Recommendation r = recommended.get(0);
    assertThat(r.tierBytes).isEqualTo(256L << 20);
    assertThat(r.media).isEqualTo("ram");
    assertThat(r.windowName).isEqualTo("24h");

    assertThat(harness.numProcessingTimeTimers()).as("no timers left").isZero();
    assertThat(harness.numKeyedStateEntries())
        .as("estimators, I/O mix, stream position, the last write's time, the long windows' first and latest"
            + " batch times and longest gap, no waiting batches").isEqualTo(7);
  }

  @Test
  void theMetricsIntervalsMeasuredLatencyGoesIntoTheRecommendation() throws Exception {
    // Two intervals of the volume measured its datastore's reads and writes at 2 ms in every bin.
    for (int interval = 0; interval < 2; interval++) {
      harness.processElement2(datastoreAt2ms(), 0);
    }
    assertThat(harness.extractOutputValues()).as("latency alone emits nothing").isEmpty();
    for (int seq = 0; seq < 4; seq++) {
      harness.processElement1(batch(seq, seq), 0);
    }
    harness.setProcessingTime(FLUSH_MS);
    Recommendation r = RecommendStep.of(estimates(), true).stream().findFirst().orElseThrow();
    assertThat(r.datastoreLatencyMicros).as("every I/O to the datastore, as measured").isCloseTo(2000, within(1e-9));
    assertThat(r.explanation).contains("the datastore's as the agent measured it;");
    assertThat(harness.numKeyedStateEntries())
        .as("estimators, I/O mix, stream position, measured latency, the last write's time, the long windows'"
            + " first and latest batch times and longest gap").isEqualTo(8);
  }

  /** One metrics interval of the volume: its datastore's reads and writes at 2 ms in every bin. */
  private static VolumeLatency datastoreAt2ms() {
    int datastore = SourceIo.sourceIndex("datastore");
    VolumeLatency v = new VolumeLatency();
    v.tenantId = TENANT;
    v.volumeId = "vol";
    v.latency = new MeasuredLatency();
    for (int bin = 0; bin < IoLengthBins.COUNT; bin++) {
      v.latency.add(datastore, false, bin, 10, 10 * 2000.0);
      v.latency.add(datastore, true, bin, 10, 10 * 2000.0);
    }
    return v;
  }

  @Test
  void latencyMeasuredAfterTheReferencesIsRecommendedFromToo() throws Exception {
    // The volume's batches are processed before its first metrics interval comes (a short
    // replay: the two inputs are separate Kafka topics).
    for (int seq = 0; seq < 4; seq++) {
      harness.processElement1(batch(seq, seq), 0);
    }
    harness.setProcessingTime(FLUSH_MS);
    assertThat(estimates()).hasSize(1);
    assertThat(estimates().get(0).measured).as("no latency had come").isNull();

    int rows = harness.extractOutputValues().size();
    harness.processElement2(datastoreAt2ms(), FLUSH_MS);
    harness.setProcessingTime(FLUSH_MS + CoarseWrites.QUIET_MILLIS + 2 * FLUSH_MS);
    assertThat(estimates()).as("the estimate is due again, at the volume's next coarse write").hasSize(2);
    assertThat(harness.extractOutputValues()).as("the windows' rows do not depend on latency").hasSize(rows);
    Recommendation r = RecommendStep.of(estimates().subList(1, 2), true).get(0);
    assertThat(r.datastoreLatencyMicros).as("the datastore's latency as measured").isCloseTo(2000, within(1e-9));

    // A later interval with another latency: made again with the mean of both.
    long now = FLUSH_MS + 3 * CoarseWrites.QUIET_MILLIS;
    VolumeLatency slower = datastoreAt2ms();
    for (int i = 0; i < slower.latency.sumMicros.length; i++) {
      slower.latency.sumMicros[i] *= 2;
    }
    harness.processElement2(slower, now);
    harness.setProcessingTime(now + CoarseWrites.QUIET_MILLIS + 2 * FLUSH_MS);
    assertThat(estimates()).hasSize(3);
    Recommendation again = RecommendStep.of(estimates().subList(2, 3), true).get(0);
    assertThat(again.datastoreLatencyMicros).isCloseTo(3000, within(1e-9));
    assertThat(harness.numProcessingTimeTimers()).as("no timer left").isZero();
  }

  @Test
  void latencyWhileTheFirstBatchIsLateWaitsForTheReferences() throws Exception {
    // Batch 1 waits for batch 0 (a backlog delivers it later); the volume's latency comes meanwhile.
    harness.processElement1(batch(1, 1), 0);
    harness.processElement2(datastoreAt2ms(), 0);
    harness.setProcessingTime(FLUSH_MS);
    assertThat(harness.extractOutputValues()).as("no references processed yet: nothing to write").isEmpty();

    harness.processElement1(batch(0, 0), FLUSH_MS);
    harness.setProcessingTime(2 * FLUSH_MS);
    assertThat(all()).extracting(a -> a.sampledReferences).containsExactly(1000L);
    Recommendation r = RecommendStep.of(estimates(), true).stream().findFirst().orElseThrow();
    assertThat(r.datastoreLatencyMicros).as("the latency that came first").isCloseTo(2000, within(1e-9));
  }

  @Test
  void aMissingBatchIsSkippedAfterTheGapTimeout() throws Exception {
    harness.processElement1(batch(0, 0), 0);
    harness.processElement1(batch(2, 2), 0);
    harness.setProcessingTime(FLUSH_MS);
    assertThat(all()).extracting(a -> a.sampledReferences).containsExactly(500L);
    harness.getOutput().clear();

    harness.setProcessingTime(GAP_MS);
    harness.setProcessingTime(GAP_MS + FLUSH_MS);
    assertThat(all()).extracting(a -> a.sampledReferences).containsExactly(1000L);
    assertThat(harness.numProcessingTimeTimers()).isZero();
    assertThat(harness.numKeyedStateEntries())
        .as("past its youth (ten 1 s periods): the long windows' last write and latest batch times, no first").isEqualTo(6);

    harness.getOutput().clear();
    harness.processElement1(batch(1, 1), GAP_MS + FLUSH_MS);
    harness.setProcessingTime(GAP_MS + 2 * FLUSH_MS);
    assertThat(all()).as("a batch after the skip is a duplicate").isEmpty();
  }

  @Test
  void duplicatesAreDroppedAndAnAgentRestartContinuesTheStream() throws Exception {
    harness.processElement1(batch(0, 0), 0);
    harness.processElement1(batch(1, 1), 0);
    harness.processElement1(batch(1, 1), 0);
    harness.setProcessingTime(FLUSH_MS);
    assertThat(all()).extracting(a -> a.sampledReferences).containsExactly(1000L);
    harness.getOutput().clear();

    harness.processElement1(batch(0, 10), FLUSH_MS); // a new agent run: sequence 0 again, later times
    harness.setProcessingTime(2 * FLUSH_MS);
    assertThat(all()).extracting(a -> a.sampledReferences).containsExactly(1500L);
  }

  /** {@link #batch} with sampling modulus 16 and threshold {@code t}: hashes below t only. */
  private static ReferenceBatchEvent sampledBatch(long seq, long seed, long t) {
    ReferenceBatchEvent e = batch(seq, seed);
    e.samplingModulus = 16;
    e.samplingThreshold = t;
    for (int i = 0; i < e.size(); i++) {
      e.blockHashes[i] = Math.floorMod(e.blockHashes[i], t);
    }
    return e;
  }

  @Test
  void anAgentRestartWithItsSampleAfreshContinuesTheWindows() throws Exception {
    // The agent's bounded sample lowered T from 16 to 8; restarted, it samples at 16 again. The
    // estimators keep their own T = 8 and go on (a restart of every window, 7 d included, lost
    // the volume's history: issue 15); the references at or above 8 are not counted.
    harness.processElement1(sampledBatch(0, 0, 16), 0);
    harness.processElement1(sampledBatch(1, 1, 8), 0);
    harness.setProcessingTime(FLUSH_MS);
    long before = all().get(0).sampledReferences;
    assertThat(before).isEqualTo(1000L);
    harness.getOutput().clear();

    ReferenceBatchEvent restarted = sampledBatch(0, 10, 16);
    long below = Arrays.stream(restarted.blockHashes).filter(h -> h < 8).count();
    harness.processElement1(restarted, FLUSH_MS);
    harness.setProcessingTime(2 * FLUSH_MS);
    assertThat(all()).extracting(a -> a.sampledReferences).containsExactly(before + below);
  }

  /**
   * {@link #batch} with the agent's working-set shares of sample {@code sampleId}: 'all' and the
   * 1 h window's pane counting {@code references} references (a fifth of them reads), none of them
   * the batch's 500 references, so that a count tells which were added up.
   */
  private static ReferenceBatchEvent sharedBatch(long seq, long seed, long sampleId, long references) {
    ReferenceBatchEvent e = batch(seq, seed);
    WindowShares w = new WindowShares();
    w.maxSamples = ShardsFixedSize.DEFAULT_MAX_SAMPLES;
    w.sampleId = sampleId;
    w.samplingThreshold = 1;
    w.lastReferenceUnixNano = e.referenceTimeUnixNano(e.size() - 1);
    long hop = 3600 * 1_000_000_000L / WindowedEstimators.PANES;
    long dayHop = 24 * 3600 * 1_000_000_000L / WindowedEstimators.PANES;
    w.windowSeconds = new int[] {0, 3600, 86_400};
    w.paneStartUnixNano = new long[] {0, Math.floorDiv(e.baseTimeUnixNano, hop) * hop,
        Math.floorDiv(e.baseTimeUnixNano, dayHop) * dayHop};
    w.paneFirstUnixNano = new long[] {T0, e.baseTimeUnixNano, e.baseTimeUnixNano};
    w.references = new long[] {references, references, references};
    w.readReferences = new long[] {references / 5, references / 5, references / 5};
    w.weight = new double[] {references, references, references};
    w.readWeight = new double[] {references / 5, references / 5, references / 5};
    w.firstWeight = new double[] {references - 1, 0, 0};
    w.blockRepeats = new long[] {1, 1, 1};
    w.readRepeats = new long[3];
    w.writeRepeats = new long[3];
    w.hitStart = new int[] {0, 1, 2, 3};
    w.hitBuckets = new int[] {0, 0, 0};
    w.hitWeights = new double[] {1, 1, 1};
    w.readHitStart = new int[4];
    e.workingSet = w;
    return e;
  }

  @Test
  void theAgentsSharesAreAddedUpAndAnotherSampleRestartsTheWindows() throws Exception {
    harness.processElement1(sharedBatch(0, 0, 7, 10), 0);
    harness.processElement1(sharedBatch(1, 1, 7, 12), 0);
    harness.setProcessingTime(FLUSH_MS);
    assertThat(all()).as("the shares, not the batches' references").extracting(a -> a.sampledReferences)
        .containsExactly(22L);
    harness.getOutput().clear();

    // Restarted with its sample restored (same id): the windows go on.
    harness.processElement1(sharedBatch(0, 10, 7, 5), FLUSH_MS);
    harness.setProcessingTime(2 * FLUSH_MS);
    assertThat(all()).extracting(a -> a.sampledReferences).containsExactly(27L);
    harness.getOutput().clear();

    // Restarted without it (another id): the agent's sample starts afresh, and so do the windows.
    harness.processElement1(sharedBatch(0, 20, 8, 6), 2 * FLUSH_MS);
    harness.setProcessingTime(3 * FLUSH_MS);
    assertThat(all()).extracting(a -> a.sampledReferences).containsExactly(6L);
  }

  /** {@code e} with its references summarised in their place (as the agent of a host without a cluster sends it). */
  private static ReferenceBatchEvent summarised(ReferenceBatchEvent e) {
    Map<List<Integer>, Long> pairs = new java.util.TreeMap<>(
        java.util.Comparator.<List<Integer>>comparingInt(k -> k.get(0)).thenComparingInt(k -> k.get(1)));
    for (int i = 0; i < e.size(); i++) {
      pairs.merge(List.of(e.writes[i] ? 1 : 0, e.lengthBlocks[i]), 1L, Long::sum);
    }
    ReferenceSummary s = new ReferenceSummary();
    s.references = e.size();
    s.firstUnixNano = e.firstReferenceUnixNano();
    s.lastUnixNano = e.lastReferenceUnixNano();
    s.writes = new boolean[pairs.size()];
    s.lengthBlocks = new int[pairs.size()];
    s.counts = new long[pairs.size()];
    int i = 0;
    for (var pair : pairs.entrySet()) {
      s.writes[i] = pair.getKey().get(0) == 1;
      s.lengthBlocks[i] = pair.getKey().get(1);
      s.counts[i++] = pair.getValue();
    }
    e.summary = s;
    e.blockHashes = new long[0];
    e.writes = new boolean[0];
    e.lengthBlocks = new int[0];
    e.timeOffsetsMicros = new long[0];
    return e;
  }

  @Test
  void aBatchThatSummarisesItsReferencesGivesTheAnalysisOfTheBatchCarryingThem() throws Exception {
    try (var summaries = ProcessFunctionTestHarnesses.forKeyedCoProcessFunction(
        new WorkingSetFunction(FLUSH_MS, FLUSH_MS, GAP_MS, 4, MrcEstimators.DEFAULT), ReferenceBatchEvent::volumeKey,
        VolumeLatency::volumeKey, Types.STRING)) {
      summaries.setProcessingTime(0);
      for (int seq = 0; seq < 3; seq++) {
        harness.processElement1(sharedBatch(seq, seq, 7, 10), 0);
        summaries.processElement1(summarised(sharedBatch(seq, seq, 7, 10)), 0);
      }
      harness.setProcessingTime(FLUSH_MS);
      summaries.setProcessingTime(FLUSH_MS);
      List<VolumeAnalysis> want = harness.extractOutputValues();
      assertThat(want).isNotEmpty();
      assertThat(summaries.extractOutputValues()).usingRecursiveFieldByFieldElementComparator().isEqualTo(want);
      List<WindowEstimate> estimates = RecommendStep.values(summaries.getSideOutput(WorkingSetFunction.RECOMMENDATION_ESTIMATES));
      List<WindowEstimate> wanted = estimates();
      assertThat(estimates).hasSize(1).hasSameSizeAs(wanted);
      assertThat(estimates.get(0)).usingRecursiveComparison().ignoringFields("io").isEqualTo(wanted.get(0));
      IoProfile io = estimates.get(0).io;
      IoProfile carried = wanted.get(0).io;
      assertThat(io.firstUnixNano).as("the span").isEqualTo(carried.firstUnixNano);
      assertThat(io.lastUnixNano).isEqualTo(carried.lastUnixNano);
      for (var ops : List.of(List.of(io.readOps, carried.readOps), List.of(io.writeOps, carried.writeOps),
          List.of(io.readBytes, carried.readBytes), List.of(io.writeBytes, carried.writeBytes))) {
        assertThat(ops.get(0)).as("the I/O mix (counts x 1 / R len, summed once)").containsExactly(ops.get(1), within(1e-9));
      }
      assertThat(Arrays.stream(io.readOps).sum()).as("an I/O mix").isPositive();

      // An agent restart (sequence 0 again, after the windows' end) is seen from the summary's times too.
      summaries.processElement1(summarised(sharedBatch(0, 100, 7, 10)), FLUSH_MS);
      summaries.setProcessingTime(2 * FLUSH_MS);
      assertThat(summaries.extractOutputValues().stream().filter(a -> a.windowName.equals(WindowedEstimators.ALL))
          .reduce((a, b) -> b).orElseThrow().sampledReferences).isEqualTo(40L);
    }
  }

  @Test
  void anAgentUpgradedToSendSharesSwitchesTheWindowsOnceAndBackWhenItStops() throws Exception {
    harness.processElement1(batch(0, 0), 0);
    harness.processElement1(sharedBatch(1, 1, 7, 10), 0);
    harness.processElement1(sharedBatch(2, 2, 7, 10), 0);
    harness.setProcessingTime(FLUSH_MS);
    assertThat(all()).as("the windows restart at the first shares and add them up").extracting(a -> a.sampledReferences)
        .containsExactly(20L);
    harness.getOutput().clear();

    harness.processElement1(batch(3, 3), FLUSH_MS);
    harness.setProcessingTime(2 * FLUSH_MS);
    assertThat(all()).as("without shares the windows simulate the references again").extracting(a -> a.sampledReferences)
        .containsExactly(500L);
  }

  @Test
  void tooManyWaitingBatchesSkipTheGapAtOnce() throws Exception {
    for (long seq = 2; seq <= 6; seq++) {
      harness.processElement1(batch(seq, seq), 0);
    }
    harness.setProcessingTime(FLUSH_MS);
    assertThat(all()).extracting(a -> a.sampledReferences).containsExactly(2500L);
    assertThat(harness.numProcessingTimeTimers()).isZero();
  }
}
