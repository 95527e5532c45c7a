package io.tierwise.jobs.workingset.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tierwise.jobs.workingset.estimate.eviction.EvictionPolicy;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class WindowedEstimatorsTest {
  private static final long SECOND = 1_000_000_000L;
  private static final long T0 = 1_700_000_000L * SECOND;

  /** A checkpoint written by an older main, from src/test/resources/state. */
  private static byte[] stateResource(String file) throws java.io.IOException {
    try (var in = WindowedEstimatorsTest.class.getResourceAsStream("/state/" + file)) {
      return in.readAllBytes();
    }
  }

  @Test
  void slidingWindowsCoverBetweenThreeQuartersAndAllOfTheirLength() throws Exception {
    WindowedEstimators w = new WindowedEstimators(MrcEstimators.DEFAULT, 1, 1);
    // 3 hours, one reference per second: the first 2 hours touch blocks 0..999 (a loop), the last
    // hour blocks 10,000..10,099 only.
    for (long t = 0; t < 3 * 3600; t++) {
      long block = t < 2 * 3600 ? t % 1000 : 10_000 + t % 100;
      w.reference(block, false, T0 + t * SECOND);
    }
    Map<String, WindowedEstimators.Result> r = w.results().stream()
        .collect(Collectors.toMap(WindowedEstimators.Result::window, x -> x));
    assertThat(r).containsOnlyKeys("all", "1h", "24h", "7d");
    long end = T0 + (3 * 3600 - 1) * SECOND;
    long oneHourCovered = end - r.get("1h").startUnixNano();
    assertThat(oneHourCovered).isBetween(45 * 60 * SECOND, 3600 * SECOND);
    // The last hour touched only the 100 new blocks.
    assertThat(r.get("1h").estimator().workingSetBytes()).isEqualTo(100 * 4096L);
    assertThat(r.get("all").estimator().workingSetBytes()).isEqualTo(1100 * 4096L);
    assertThat(r.get("24h").estimator().workingSetBytes()).isEqualTo(1100 * 4096L);
    assertThat(r.get("all").startUnixNano()).isEqualTo(T0);
    // 24 h and 7 d have not slid in 3 hours: they are 'all' (its stream totals and anchor count); 1 h has.
    assertThat(r.get("24h").estimator()).isSameAs(r.get("all").estimator());
    assertThat(r.get("7d").estimator()).isSameAs(r.get("all").estimator());
    assertThat(r.get("1h").estimator()).isNotSameAs(r.get("all").estimator());

    DataOutputSerializer out = new DataOutputSerializer(4096);
    WindowedEstimatorsSerializer.INSTANCE.serialize(w, out);
    assertThat((double) out.length()).isCloseTo(w.stateBytes(), org.assertj.core.api.Assertions.within(0.01 * w.stateBytes()));
    WindowedEstimators restored = WindowedEstimatorsSerializer.INSTANCE.deserialize(
        new DataInputDeserializer(out.getCopyOfBuffer()));
    List<WindowedEstimators.Result> again = restored.results();
    assertThat(again).extracting(x -> x.estimator().workingSetBytes())
        .containsExactlyElementsOf(w.results().stream().map(x -> x.estimator().workingSetBytes()).toList());
  }

  /** One batch's shares of sample {@code id} at rate 1: 'all' and the 1 h pane of {@code time}, {@code refs} reads, one re-read at distance 0. */
  private static WindowShares shares(long id, long time, long refs) {
    long hop = 900 * SECOND;
    WindowShares w = new WindowShares();
    w.maxSamples = ShardsFixedSize.DEFAULT_MAX_SAMPLES;
    w.sampleId = id;
    w.samplingThreshold = 1;
    w.lastReferenceUnixNano = time;
    w.windowSeconds = new int[] {0, 3600};
    w.paneStartUnixNano = new long[] {0, time / hop * hop};
    w.paneFirstUnixNano = new long[] {T0, time};
    w.references = new long[] {refs, refs};
    w.readReferences = new long[] {refs, refs};
    w.weight = new double[] {refs, refs};
    w.readWeight = new double[] {refs, refs};
    w.firstWeight = new double[] {refs - 1, 0};
    w.blockRepeats = new long[] {1, 1};
    w.readRepeats = new long[] {1, 1};
    w.writeRepeats = new long[2];
    w.hitStart = new int[] {0, 1, 2};
    w.hitBuckets = new int[] {0, 0};
    w.hitWeights = new double[] {1, 1};
    w.readHitStart = new int[] {0, 1, 2};
    w.readHitBuckets = new int[] {0, 0};
    w.readHitWeights = new double[] {1, 1};
    return w;
  }

  @Test
  void theAgentsSharesAddUpDropTheirOldPanesAndSurviveACheckpointWithTheirSample() throws Exception {
    WindowedEstimators w = new WindowedEstimators(MrcEstimators.DEFAULT, 1, 1);
    w.addShares(shares(5, T0, 10));
    w.addShares(shares(5, T0 + 3 * 3600 * SECOND, 20));
    Map<String, WindowedEstimators.Result> r = w.results().stream()
        .collect(Collectors.toMap(WindowedEstimators.Result::window, x -> x));
    assertThat(r.get("all").estimator().references()).isEqualTo(30);
    assertThat(r.get("all").estimator().workingSetBytes()).as("9 + 19 blocks at rate 1").isEqualTo((9 + 19) * 4096L);
    assertThat(r.get("1h").estimator().references()).as("the first pane is 3 hours old: dropped").isEqualTo(20);
    assertThat(r.get("1h").startUnixNano()).isEqualTo(T0 + 3 * 3600 * SECOND);
    assertThat(w.results().get(0).estimator().missRatioAt(4096)).isCloseTo(28.0 / 30, within(1e-12));
    assertThatThrownBy(() -> w.reference(1, false, T0)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("add up the agent's shares");

    DataOutputSerializer out = new DataOutputSerializer(4096);
    WindowedEstimatorsSerializer.INSTANCE.serialize(w, out);
    assertThat((double) out.length()).isCloseTo(w.stateBytes(), within(0.01 * w.stateBytes()));
    WindowedEstimators restored = WindowedEstimatorsSerializer.INSTANCE.deserialize(
        new DataInputDeserializer(out.getCopyOfBuffer()));
    assertThat(restored.takesShares()).isTrue();
    assertThat(restored.accepts(shares(5, T0, 1))).as("the same sample goes on").isTrue();
    assertThat(restored.accepts(shares(6, T0, 1))).as("another sample does not").isFalse();
    assertThat(restored.results()).extracting(x -> x.estimator().workingSetBytes())
        .containsExactlyElementsOf(w.results().stream().map(x -> x.estimator().workingSetBytes()).toList());
    assertThat(new WindowedEstimators(MrcEstimators.DEFAULT, 1, 1).accepts(shares(6, T0, 1))).isTrue();
    assertThat(new WindowedEstimators(new MrcEstimators(MrcEstimator.METHOD_FIXED_SIZE, 4096), 1, 1)
        .accepts(shares(6, T0, 1))).as("a sample of another size").isFalse();
  }

  @Test
  void noPolicysCurveMissesLessThanTheFirstReferences() {
    WindowedEstimators w = WindowedEstimators.withPolicies(MrcEstimators.DEFAULT, 1, 1);
    java.util.Random random = new java.util.Random(3);
    for (long t = 0; t < 40_000; t++) {
      long block = random.nextInt(3) == 0 ? random.nextInt(200) : 1000 + t % 2500;
      w.reference(block * 0x9E3779B97F4A7C15L, t % 4 == 0, T0 + t * SECOND);
    }
    MissRatioCurve lru = w.all().missRatioCurve(MissRatioCurve.cacheSizeGrid(w.all().workingSetBytes()));
    double cold = lru.missRatio(lru.size() - 1);
    double[][] curves = w.evictionMissRatios(lru, false);
    assertThat(curves).hasNumberOfRows(io.tierwise.jobs.workingset.estimate.eviction.EvictionPolicy.values().length);
    for (double[] curve : curves) {
      for (double m : curve) {
        assertThat(m).isBetween(cold, 1.0);
      }
    }
    assertThat(curves[0]).as("LRU's row is the LRU curve").containsExactly(lru.missRatios());
  }

  @Test
  void aCheckpointOfThirteenEstimatorsRestoresAllAndStartsTheWindowsAgain() throws Exception {
    // Written by main at 776d6a2 (state format 2: 'all' and 12 panes, each its own estimator):
    // 3 h of one reference a second, 100 blocks for 2 h then 20 others, with the policies.
    byte[] old = stateResource("windowed-estimators-format2.bin");
    WindowedEstimators w = WindowedEstimatorsSerializer.INSTANCE.deserialize(new DataInputDeserializer(old));
    assertThat(w.all().references()).isEqualTo(3 * 3600);
    assertThat(w.all().workingSetBytes()).isEqualTo(120 * 4096L);
    assertThat(w.simulatesPolicies()).isTrue();
    assertThat(w.results()).extracting(WindowedEstimators.Result::window).containsExactly("all");
    long t = T0 + 3 * 3600 * SECOND;
    for (long i = 0; i < 600; i++) {
      w.reference(20_000 + i % 10, false, t + i * SECOND);
    }
    Map<String, WindowedEstimators.Result> r = w.results().stream()
        .collect(Collectors.toMap(WindowedEstimators.Result::window, x -> x));
    assertThat(r).containsOnlyKeys("all", "1h", "24h", "7d");
    assertThat(r.get("1h").estimator().workingSetBytes()).isEqualTo(10 * 4096L);
    assertThat(r.get("all").estimator().workingSetBytes()).isEqualTo(130 * 4096L);
  }

  /**
   * The stream of windowed-estimators-format4.bin (this loop is its definition): one reference a
   * second from just after T0, most to a hot set that moves every hour, the rest to cold blocks,
   * some of them writes; its estimators are fixed-size SHARDS small enough that the threshold
   * falls and blocks leave the sample.
   */
  private static WindowedEstimators fiveHours(WindowedEstimators w, int fromSecond, int toSecond) {
    java.util.Random r = new java.util.Random(4);
    for (int i = 0; i < toSecond; i++) {
      long block = r.nextInt(10) < 7 ? (i / 3600) * 3000 + r.nextInt(3000) : 100_000 + r.nextInt(30_000);
      boolean write = r.nextInt(4) == 0;
      if (i >= fromSecond) {
        w.reference(io.tierwise.jobs.testing.BlockHashes.of(block), write, T0 + (123 + i) * SECOND);
      }
    }
    return w;
  }

  @Test
  void aCheckpointOfWholePanesRestoresEveryWindowAsShares() throws Exception {
    // Written by main at 2433901 (state format 4: each pane whole) after fiveHours.
    byte[] old = stateResource("windowed-estimators-format4.bin");
    WindowedEstimators restored = WindowedEstimatorsSerializer.INSTANCE.deserialize(new DataInputDeserializer(old));
    WindowedEstimators fresh = fiveHours(new WindowedEstimators(
        new MrcEstimators(MrcEstimator.METHOD_FIXED_SIZE, 512), 1L << 24, 1L << 24), 0, 5 * 3600);
    long[] sizes = MissRatioCurve.cacheSizeGrid(256 * MissRatioCurve.MIB);
    // What 2433901 reported for the 1 h window: four live panes, the oldest from 4:15.
    MrcEstimate hour = restored.results().get(1).estimator();
    assertThat(restored.results().get(1).startUnixNano()).isEqualTo(1_700_015_400L * SECOND);
    assertThat(hour.references()).isEqualTo(103);
    assertThat(hour.workingSetBytes()).isEqualTo(9_281_536);
    assertThat(hour.readWorkingSetBytes()).isEqualTo(7_315_456);
    assertThat(hour.writeWorkingSetBytes()).isEqualTo(2_404_352);
    assertThat(hour.missRatioCurve(sizes).missRatio(0)).isCloseTo(0.9210753775596074, within(1e-12));
    for (int hours = 5; hours <= 6; hours++) {
      if (hours == 6) {
        // Both go on with the next hour of the stream alike.
        fiveHours(restored, 5 * 3600, 6 * 3600);
        fiveHours(fresh, 5 * 3600, 6 * 3600);
      }
      List<WindowedEstimators.Result> a = restored.results();
      List<WindowedEstimators.Result> b = fresh.results();
      assertThat(a).extracting(WindowedEstimators.Result::window).containsExactly("all", "1h", "24h", "7d");
      for (int i = 0; i < a.size(); i++) {
        MrcEstimate x = a.get(i).estimator();
        MrcEstimate y = b.get(i).estimator();
        assertThat(a.get(i).startUnixNano()).isEqualTo(b.get(i).startUnixNano());
        assertThat(new long[] {x.references(), x.readReferences(), x.workingSetBytes(), x.readWorkingSetBytes(),
            x.writeWorkingSetBytes()}).containsExactly(y.references(), y.readReferences(), y.workingSetBytes(),
            y.readWorkingSetBytes(), y.writeWorkingSetBytes());
        assertThat(x.missRatioCurve(sizes).missRatios()).containsExactly(y.missRatioCurve(sizes).missRatios(),
            within(1e-12));
        assertThat(x.readMissRatioCurve(sizes).orElseThrow().missRatios())
            .containsExactly(y.readMissRatioCurve(sizes).orElseThrow().missRatios(), within(1e-12));
      }
    }
  }

  @Test
  void theAgentsSimulationsReplaceTheServicesAndSurviveACheckpoint() throws Exception {
    long p = 1 << 24;
    WindowedEstimators w = WindowedEstimators.withPolicies(MrcEstimators.DEFAULT, p, p);
    for (long i = 0; i < 3000; i++) {
      w.reference((i % 700) * 0x9e3779b97f4a7c15L, false, T0 + i * SECOND);
    }
    // Format 3 wrote a boolean where format 4 writes the kind: the service's simulations are 1 in
    // both. This stream's state, written by main at 2433901 (format 4) with the format set to 3.
    byte[] format3 = stateResource("windowed-estimators-format3.bin");
    WindowedEstimators old = WindowedEstimators.readFrom(new DataInputDeserializer(format3));
    assertThat(old.evictionDifferences().differences).isDeepEqualTo(w.evictionDifferences().differences);
    assertThat(old.results()).extracting(r -> r.estimator().workingSetBytes())
        .containsExactlyElementsOf(w.results().stream().map(r -> r.estimator().workingSetBytes()).toList());
    DataOutputSerializer out = new DataOutputSerializer(1 << 16);

    MiniatureBatch batch = new MiniatureBatch();
    batch.cacheBytes = new long[] {4L << 20};
    batch.thresholds = new long[] {p / 2};
    batch.references = new long[] {100};
    batch.readReferences = new long[] {100};
    batch.misses = new long[][] {{60, 40, 60, 60, 60}};
    batch.readMisses = new long[][] {{60, 40, 60, 60, 60}};
    w.addAgentSimulations(batch);
    assertThat(w.evictionDifferences().cacheBytes).containsExactly(4L << 20);
    assertThat(w.evictionMissRatio(EvictionPolicy.S3FIFO, 4L << 20, 0.5, 0.1, false)).isEqualTo(0.3);
    out.clear();
    w.writeTo(out);
    assertThat((long) out.length()).isEqualTo(w.stateBytes());
    WindowedEstimators restored = WindowedEstimators.readFrom(new DataInputDeserializer(out.getCopyOfBuffer()));
    assertThat(restored.evictionMissRatio(EvictionPolicy.S3FIFO, 4L << 20, 0.5, 0.1, true)).isEqualTo(0.3);
    assertThat(restored.copy().evictionDifferences().cacheBytes).containsExactly(4L << 20);
  }

  @Test
  void aVolumeWhoseAgentHasSimulatedNoSizeYetGetsLrusCurveForEveryPolicy() {
    long p = 1L << 24;
    WindowedEstimators w = WindowedEstimators.withPolicies(MrcEstimators.DEFAULT, p, p);
    MiniatureBatch empty = new MiniatureBatch(); // a batch whose references filled no size yet
    w.addAgentSimulations(empty);
    MissRatioCurve lru = new MissRatioCurve(new long[] {4L << 20, 8L << 20}, new double[] {0.6, 0.4});
    double[][] curves = w.evictionMissRatios(lru, false);
    for (double[] curve : curves) {
      assertThat(curve).containsExactly(0.6, 0.4);
    }
  }
}
