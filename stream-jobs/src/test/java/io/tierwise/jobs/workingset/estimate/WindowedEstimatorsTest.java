package io.tierwise.jobs.workingset.estimate;

import static org.assertj.core.api.Assertions.assertThat;

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
    byte[] old;
    try (var in = getClass().getResourceAsStream("/state/windowed-estimators-format2.bin")) {
      old = in.readAllBytes();
    }
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

  @Test
  void theAgentsSimulationsReplaceTheServicesAndSurviveACheckpoint() throws Exception {
    long p = 1 << 24;
    WindowedEstimators w = WindowedEstimators.withPolicies(MrcEstimators.DEFAULT, p, p);
    for (long i = 0; i < 3000; i++) {
      w.reference((i % 700) * 0x9e3779b97f4a7c15L, false, T0 + i * SECOND);
    }
    // Format 3 wrote a boolean where format 4 writes the kind: the service's simulations are 1 in both.
    DataOutputSerializer out = new DataOutputSerializer(1 << 16);
    w.writeTo(out);
    byte[] format3 = out.getCopyOfBuffer();
    format3[3] = 3;
    WindowedEstimators old = WindowedEstimators.readFrom(new DataInputDeserializer(format3));
    assertThat(old.evictionDifferences().differences).isDeepEqualTo(w.evictionDifferences().differences);

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
