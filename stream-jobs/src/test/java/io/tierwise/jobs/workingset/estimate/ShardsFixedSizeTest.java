package io.tierwise.jobs.workingset.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tierwise.jobs.testing.BlockHashes;
import io.tierwise.jobs.testing.ExactLru;
import java.util.Arrays;
import java.util.Random;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class ShardsFixedSizeTest {
  private static final long P = 1L << 24;
  private static final long[] SIZES = MissRatioCurve.cacheSizeGrid(64 * MissRatioCurve.MIB);

  /** A skewed stream over {@code blocks} blocks: 80 % of references to the first 20 % of blocks. */
  private static long[] stream(int n, int blocks, long seed) {
    Random r = new Random(seed);
    long[] refs = new long[n];
    for (int i = 0; i < n; i++) {
      refs[i] = r.nextInt(10) < 8 ? r.nextInt(blocks / 5) : r.nextInt(blocks);
    }
    return refs;
  }

  @Test
  void belowTheSampleSizeItIsTheExactLruCurve() {
    // At most 4,000 blocks < s_max at R = 1: nothing is evicted and every distance is exact.
    long[] refs = stream(100_000, 4000, 1);
    long distinct = Arrays.stream(refs).distinct().count();
    ShardsFixedSize s = new ShardsFixedSize(P, P, 8192);
    ExactLru exact = new ExactLru(SIZES);
    for (int i = 0; i < refs.length; i++) {
      s.reference(BlockHashes.of(refs[i]), i % 4 == 0);
      exact.reference(refs[i]);
    }
    assertThat(s.rate()).isEqualTo(1.0);
    assertThat(s.sampledBlocks()).isEqualTo(distinct);
    assertThat(s.missRatioCurve(SIZES).missRatios()).containsExactly(exact.missRatios(), within(1e-12));
    assertThat(s.workingSetBytes()).isEqualTo(distinct * 4096);
  }

  @Test
  void theSampleStaysBoundedAndTheCurveCloseWhileTheRateFalls() {
    // About 70,000 distinct of 100,000 blocks (270 MiB), s_max 2,048: R falls to about 0.03.
    long[] refs = stream(500_000, 100_000, 2);
    long distinct = Arrays.stream(refs).distinct().count();
    long[] sizes = {16 * MissRatioCurve.MIB, 64 * MissRatioCurve.MIB, 256 * MissRatioCurve.MIB};
    ShardsFixedSize s = new ShardsFixedSize(P, P, 2048);
    ExactLru exact = new ExactLru(sizes);
    long maxState = 0;
    for (int i = 0; i < refs.length; i++) {
      s.reference(BlockHashes.of(refs[i]), false);
      exact.reference(refs[i]);
      if (i % 50_000 == 0) {
        maxState = Math.max(maxState, s.stateBytes());
      }
    }
    assertThat(s.sampledBlocks()).isEqualTo(2048);
    // T is the 2,049th smallest of `distinct` uniform priorities: R = 2,048 / distinct, 2.2 % error.
    assertThat(s.rate()).isCloseTo(2048.0 / distinct, within(0.1 * 2048.0 / distinct));
    assertThat(s.missRatioCurve(sizes).meanAbsoluteError(new MissRatioCurve(sizes, exact.missRatios())))
        .isLessThan(0.03);
    // 2,048 blocks x 16 bytes plus histograms: bounded, whatever the stream's length.
    assertThat(maxState).isLessThan(2048 * 16 + 40_000);
    assertThat(s.workingSetBytes() / 4096.0).as("sampled blocks / R").isCloseTo(distinct, within(0.1 * distinct));
  }

  @Test
  void aLowerAgentThresholdEvictsTheBlocksAboveIt() {
    ShardsFixedSize s = new ShardsFixedSize(P, P, 8192);
    for (long b = 0; b < 1000; b++) {
      s.reference(BlockHashes.of(b), b % 2 == 0);
    }
    s.lowerThreshold(P / 4);
    assertThat(s.currentThreshold()).isEqualTo(P / 4);
    assertThat(s.sampledBlocks()).isBetween(200, 300);
    s.lowerThreshold(P / 2);
    assertThat(s.currentThreshold()).as("never raised").isEqualTo(P / 4);
    assertThat(s.readWorkingSetBytes() + s.writeWorkingSetBytes()).isEqualTo(s.workingSetBytes());
    assertThatThrownBy(() -> new ShardsFixedSize(P, P, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void stateSurvivesSerializationAndCopy() throws Exception {
    long[] refs = stream(60_000, 20_000, 3);
    ShardsFixedSize uninterrupted = new ShardsFixedSize(P, P / 2, 1024);
    ShardsFixedSize first = new ShardsFixedSize(P, P / 2, 1024);
    for (int i = 0; i < 30_000; i++) {
      uninterrupted.reference(BlockHashes.of(refs[i]), i % 3 == 0);
      first.reference(BlockHashes.of(refs[i]), i % 3 == 0);
    }
    DataOutputSerializer out = new DataOutputSerializer(1024);
    MrcEstimators.write(first, out);
    assertThat((long) out.length()).as("the state, whose layout names the variant").isEqualTo(first.stateBytes());
    ShardsFixedSize restored = (ShardsFixedSize) MrcEstimators.read(new DataInputDeserializer(out.getCopyOfBuffer()));
    ShardsFixedSize copied = first.copy();
    for (int i = 30_000; i < refs.length; i++) {
      for (ShardsFixedSize s : new ShardsFixedSize[] {uninterrupted, restored, copied}) {
        s.reference(BlockHashes.of(refs[i]), i % 3 == 0);
      }
    }
    for (ShardsFixedSize s : new ShardsFixedSize[] {restored, copied}) {
      assertThat(s.missRatioCurve(SIZES).missRatios()).containsExactly(uninterrupted.missRatioCurve(SIZES).missRatios());
      assertThat(s.readMissRatioCurve(SIZES).orElseThrow().missRatios())
          .containsExactly(uninterrupted.readMissRatioCurve(SIZES).orElseThrow().missRatios());
      assertThat(s.currentThreshold()).isEqualTo(uninterrupted.currentThreshold());
      assertThat(s.readWorkingSetBytes()).isEqualTo(uninterrupted.readWorkingSetBytes());
      assertThat(s.references()).isEqualTo(uninterrupted.references());
    }
    assertThat(first.references()).as("the copy is independent").isLessThan(uninterrupted.references());
  }

  @Test
  void histogramBucketBoundariesIncludeEveryGridSize() {
    for (long bytes : MissRatioCurve.cacheSizeGrid(64L << 30)) {
      double blocks = bytes / 4096.0;
      int i = DistanceHistogram.index(blocks);
      assertThat(DistanceHistogram.lowerBound(i)).as("%d bytes", bytes).isEqualTo(blocks);
    }
    for (double x : new double[] {0, 1.5, 63.9, 64, 100.7, 1e6, 3.3e9}) {
      int i = DistanceHistogram.index(x);
      assertThat(x).isGreaterThanOrEqualTo(DistanceHistogram.lowerBound(i)).isLessThan(DistanceHistogram.lowerBound(i + 1));
    }
  }
}
