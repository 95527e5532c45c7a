package io.tierwise.jobs.workingset.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tierwise.jobs.testing.SketchRegisters;
import io.tierwise.jobs.workingset.estimate.eviction.EvictionPolicy;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * What the working-set operators send the recommender ({@link WindowEstimate}) answers as the
 * estimators did when it was taken: the curves of all references and of the reads ({@link
 * MissRatioFunction}: histogram and exact counts, stream totals and LRU anchor) at the grid and
 * between its sizes, every policy's miss ratio ({@link EvictionDifferences}) at any size, and
 * none of it moves when the estimators go on.
 */
class WindowEstimateTest {
  private static final long SECOND = 1_000_000_000L;
  private static final long T0 = 1_700_000_000L * SECOND;
  /** The agent's modulus. */
  private static final long P = 1 << 24;
  /** Grid sizes, sizes between them and past the simulations' grid. */
  private static final long[] SIZES = {4096, 1 << 20, 4 << 20, 5 << 20, 6 << 20, 100L << 20, 1L << 30, 3L << 30,
      100L << 30};

  /** The stream totals and LRU anchor of {@code refs}, as one agent batch ships them. */
  private static void addTotals(MrcEstimator e, long[] refs, long anchorHits) {
    SketchRegisters agent = new SketchRegisters(16);
    for (long h : refs) {
      agent.add(h);
    }
    e.addStreamTotals(refs.length, 16, agent.drainUpdates());
    e.addLruAnchor(anchorHits, 1024);
  }

  private static long[] refs(int n, long seed) {
    Random random = new Random(seed);
    return random.ints(n, 0, 5000).asLongStream().map(b -> (b * b / 5000) * 0x9E3779B97F4A7C15L).toArray();
  }

  private static double[] missRatios(MissRatioFunction f) {
    double[] out = new double[SIZES.length];
    for (int i = 0; i < SIZES.length; i++) {
      out[i] = f.missRatioAt(SIZES[i]);
    }
    return out;
  }

  @Test
  void theCurvesAnswerAsTheEstimatorDidWhenTheyWereTaken() {
    for (MrcEstimator e : List.of(new ShardsFixedSize(P, P / 2, 1024), new ShardsFixedRate(P, P / 2))) {
      long[] refs = refs(20_000, 7);
      addTotals(e, refs, refs.length / 3);
      for (int i = 0; i < refs.length; i++) {
        e.reference(refs[i], i % 5 == 0);
      }
      MissRatioCurve curve = e.missRatioCurve(SIZES);
      MissRatioCurve reads = e.readMissRatioCurve(SIZES).orElseThrow();
      MissRatioFunction f = e.missRatioFunction();
      MissRatioFunction r = e.readMissRatioFunction().orElseThrow();
      assertThat(f.anchored).as(e.method() + ": stream totals and anchor").isTrue();
      assertThat(f.at(SIZES).missRatios()).as(e.method()).containsExactly(curve.missRatios());
      assertThat(r.at(SIZES).missRatios()).as(e.method()).containsExactly(reads.missRatios());
      double[] at = new double[SIZES.length];
      for (int i = 0; i < SIZES.length; i++) {
        at[i] = e.missRatioAt(SIZES[i]);
      }
      assertThat(missRatios(f)).as(e.method()).containsExactly(at);

      for (long h : refs(20_000, 8)) {
        e.reference(h, false);
      }
      assertThat(e.missRatioCurve(SIZES).missRatios()).as("the estimator went on").isNotEqualTo(curve.missRatios());
      assertThat(f.at(SIZES).missRatios()).as(e.method() + ": detached").containsExactly(curve.missRatios());
      assertThat(missRatios(f)).containsExactly(at);
      assertThat(r.at(SIZES).missRatios()).containsExactly(reads.missRatios());
    }
  }

  @Test
  void withoutReadsThereIsNoReadsCurveAndWithoutReferencesNoCurve() {
    ShardsFixedSize e = new ShardsFixedSize(1, 1, 256);
    assertThatThrownBy(e::missRatioFunction).isInstanceOf(IllegalStateException.class);
    e.reference(1, true);
    assertThat(e.readMissRatioFunction()).isEmpty();
    assertThat(e.missRatioFunction().missRatioAt(4096)).isEqualTo(e.missRatioAt(4096));
  }

  @Test
  void everyPolicysMissRatioIsTheSimulationsAtAnySize() {
    WindowedEstimators w = WindowedEstimators.withPolicies(MrcEstimators.DEFAULT, P, P);
    Random random = new Random(3);
    for (long t = 0; t < 40_000; t++) {
      long block = random.nextInt(3) == 0 ? random.nextInt(200) : 1000 + t % 2500;
      w.reference(block * 0x9E3779B97F4A7C15L, t % 4 == 0, T0 + t * SECOND);
    }
    MrcEstimator all = w.all();
    WindowEstimate estimate = WindowEstimate.of("all", all, new IoProfile(), w);
    EvictionDifferences d = estimate.evictions;
    double cold = all.missRatioAt(Long.MAX_VALUE / 2);
    double[] lru = new double[SIZES.length];
    double[][][] expected = new double[EvictionPolicy.values().length][SIZES.length][2];
    for (int i = 0; i < SIZES.length; i++) {
      lru[i] = all.missRatioAt(SIZES[i]);
      for (EvictionPolicy p : EvictionPolicy.values()) {
        for (int readsOnly = 0; readsOnly < 2; readsOnly++) {
          expected[p.ordinal()][i][readsOnly] = w.evictionMissRatio(p, SIZES[i], lru[i], cold, readsOnly == 1);
          assertThat(d.missRatio(p, SIZES[i], lru[i], cold, readsOnly == 1)).as(p + " at " + SIZES[i])
              .isEqualTo(expected[p.ordinal()][i][readsOnly]);
        }
      }
    }
    assertThat(estimate.missRatios.at(SIZES).missRatios()).containsExactly(all.missRatioCurve(SIZES).missRatios());
    assertThat(estimate.sampledReferences).isEqualTo(all.references());
    assertThat(estimate.wssBytes).isEqualTo(all.workingSetBytes());

    for (long t = 40_000; t < 60_000; t++) {
      w.reference((5000 + t % 7000) * 0x9E3779B97F4A7C15L, false, T0 + t * SECOND);
    }
    int moved = 0;
    for (int i = 0; i < SIZES.length; i++) {
      for (EvictionPolicy p : EvictionPolicy.values()) {
        for (int readsOnly = 0; readsOnly < 2; readsOnly++) {
          double then = expected[p.ordinal()][i][readsOnly];
          assertThat(d.missRatio(p, SIZES[i], lru[i], cold, readsOnly == 1)).as("detached").isEqualTo(then);
          moved += w.evictionMissRatio(p, SIZES[i], lru[i], cold, readsOnly == 1) != then ? 1 : 0;
        }
      }
    }
    assertThat(moved).as("the simulations went on").isPositive();
    assertThatThrownBy(() -> d.missRatio(EvictionPolicy.S3FIFO, 0, 0.5, 0.1, false))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
