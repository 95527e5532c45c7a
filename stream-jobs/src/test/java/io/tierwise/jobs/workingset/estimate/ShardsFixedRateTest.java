package io.tierwise.jobs.workingset.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tierwise.jobs.testing.ExactLru;
import io.tierwise.jobs.testing.SketchRegisters;
import java.util.Random;
import java.util.stream.LongStream;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class ShardsFixedRateTest {
  private static final long BLOCK = ShardsEstimator.BLOCK_BYTES;

  /** Rate 1.0 (P = T = 1: every block sampled). */
  private static ShardsFixedRate everyBlock() {
    return new ShardsFixedRate(1, 1);
  }

  private static long[] blockSizes(int maxBlocks) {
    return LongStream.rangeClosed(1, maxBlocks).map(b -> b * BLOCK).toArray();
  }

  @Test
  void cyclicScanMissesUntilTheCacheHoldsTheWholeLoop() {
    ShardsFixedRate s = everyBlock();
    for (int round = 0; round < 2; round++) {
      for (long block : new long[] {10, 20, 30}) {
        s.reference(block, false);
      }
    }
    MissRatioCurve mrc = s.missRatioCurve(blockSizes(4));
    // a b c a b c: three cold misses, then each re-reference has stack distance 2.
    assertThat(mrc.missRatios()).containsExactly(1.0, 1.0, 0.5, 0.5);
    assertThat(s.workingSetBytes()).isEqualTo(3 * BLOCK);
  }

  @Test
  void rateOneEqualsExactLruOnRandomSequences() {
    Random random = new Random(7);
    for (int trial = 0; trial < 20; trial++) {
      int universe = 1 + random.nextInt(300);
      int length = 1 + random.nextInt(5000);
      long[] sizes = blockSizes(universe + 1);
      ShardsFixedRate shards = everyBlock();
      ExactLru exact = new ExactLru(sizes);
      for (int i = 0; i < length; i++) {
        // Skewed reuse (squared uniform) so that short and long distances both occur.
        double u = random.nextDouble();
        long block = (long) (u * u * universe);
        shards.reference(block, random.nextBoolean());
        exact.reference(block);
      }
      assertThat(shards.missRatioCurve(sizes).missRatios())
          .as("trial %d (universe %d, length %d)", trial, universe, length)
          .containsExactly(exact.missRatios(), within(1e-12));
    }
  }

  @Test
  void compactionKeepsDistancesExact() {
    // 50 distinct blocks over 100,000 references: the time index is renumbered ~100 times.
    Random random = new Random(11);
    long[] sizes = blockSizes(51);
    ShardsFixedRate shards = everyBlock();
    ExactLru exact = new ExactLru(sizes);
    for (int i = 0; i < 100_000; i++) {
      long block = random.nextInt(50);
      shards.reference(block, false);
      exact.reference(block);
    }
    assertThat(shards.missRatioCurve(sizes).missRatios()).containsExactly(exact.missRatios(), within(1e-12));
  }

  @Test
  void sampledDistancesAreScaledByTheInverseRate() {
    // R = 1/4: a sampled distance of 1 stands for 4 blocks.
    ShardsFixedRate s = new ShardsFixedRate(4, 1);
    s.reference(0, false);
    s.reference(4, false);
    s.reference(0, false);
    assertThat(s.rate()).isEqualTo(0.25);
    assertThat(s.missRatioAt(4 * BLOCK)).isEqualTo(1.0);
    assertThat(s.missRatioAt(5 * BLOCK)).isCloseTo(2.0 / 3, within(1e-12));
    assertThat(s.workingSetBytes()).isEqualTo(8 * BLOCK);
  }

  @Test
  void readAndWriteWorkingSetsCountDistinctBlocksPerDirection() {
    ShardsFixedRate s = everyBlock();
    s.reference(1, false);
    s.reference(1, true);
    s.reference(2, true);
    s.reference(3, false);
    s.reference(3, false);
    assertThat(s.workingSetBytes()).isEqualTo(3 * BLOCK);
    assertThat(s.readWorkingSetBytes()).isEqualTo(2 * BLOCK);
    assertThat(s.writeWorkingSetBytes()).isEqualTo(2 * BLOCK);
    assertThat(s.readReferences()).isEqualTo(3);
    assertThat(s.writeReferences()).isEqualTo(2);
  }

  @Test
  void samplingPredicateIsUnsignedModulo() {
    ShardsFixedRate s = new ShardsFixedRate(100, 1);
    assertThat(s.isSampled(200)).isTrue();
    assertThat(s.isSampled(201)).isFalse();
    // 2^64 - 1 = 18446744073709551615 = 15 (mod 100)
    assertThat(s.isSampled(-1L)).isFalse();
    assertThat(new ShardsFixedRate(100, 16).isSampled(-1L)).isTrue();
  }

  @Test
  void rejectsImpossibleSamplingParameters() {
    assertThatThrownBy(() -> new ShardsFixedRate(0, 1)).hasMessageContaining("0 < threshold <= modulus");
    assertThatThrownBy(() -> new ShardsFixedRate(10, 11)).hasMessageContaining("threshold 11");
    assertThatThrownBy(() -> everyBlock().missRatioAt(BLOCK)).isInstanceOf(IllegalStateException.class);
  }

  /** Sketch updates for the given block hashes, as the agent would ship them. */
  private static int[] sketchUpdates(long... blockHashes) {
    SketchRegisters agent = new SketchRegisters(16);
    for (long h : blockHashes) {
      agent.add(h);
    }
    return agent.drainUpdates();
  }

  @Test
  void streamTotalsScaleByTheRealisedSamplingFraction() {
    // R = 1/4 nominally, but 2 of the stream's 10 distinct blocks are sampled: R' = 0.2.
    ShardsFixedRate s = new ShardsFixedRate(4, 1);
    long[] blocks = LongStream.range(0, 10).map(i -> (i << 60) | (i % 5 == 0 ? 0 : 1)).toArray();
    s.addStreamTotals(15, 16, sketchUpdates(blocks));
    s.reference(blocks[0], false);
    s.reference(blocks[5], false);
    s.reference(blocks[0], false);
    assertThat(s.hasStreamTotals()).isTrue();
    assertThat(s.distinctBlocksEstimate()).isCloseTo(10, within(0.01));
    assertThat(s.effectiveRate()).isCloseTo(0.2, within(1e-3));
    assertThat(s.workingSetBytes()).isEqualTo(10 * BLOCK);
    // The re-reference has sampled distance 1: 1 / 0.2 = 5 blocks. Misses / (R' N) = misses / 3.
    assertThat(s.missRatioAt(5 * BLOCK)).isCloseTo(1.0, within(1e-3));
    assertThat(s.missRatioAt(6 * BLOCK)).isCloseTo(2.0 / 3, within(1e-3));
  }

  @Test
  void streamTotalsAtRateOneGiveTheExactMrcAndWorkingSet() {
    Random random = new Random(13);
    long[] sizes = blockSizes(201);
    ShardsFixedRate shards = everyBlock();
    ExactLru exact = new ExactLru(sizes);
    long[] refs = random.ints(3000, 0, 200).asLongStream().toArray();
    shards.addStreamTotals(refs.length, 16, sketchUpdates(refs));
    for (long block : refs) {
      shards.reference(block, false);
      exact.reference(block);
    }
    assertThat(shards.effectiveRate()).isEqualTo(1.0);
    assertThat(shards.missRatioCurve(sizes).missRatios()).containsExactly(exact.missRatios(), within(1e-12));
    assertThat(shards.workingSetBytes()).isEqualTo(shards.sampledBlocks() * BLOCK);
  }

  @Test
  void theLruAnchorPutsTheCurveOnTheExactMissRatioAtItsSize() {
    // A 1-in-4 sample of 400 blocks with skewed reuse; the exact LRU over every reference
    // gives the anchor's hits at 8 blocks, as the agent's LruAnchor counts them. (Whether the
    // anchor brings the curve closer is a property of real traces: ShardsAccuracyTest.)
    Random random = new Random(21);
    long[] sizes = blockSizes(401);
    long anchorBlocks = 8;
    ExactLru anchor = new ExactLru(new long[] {anchorBlocks * BLOCK});
    long[] refs = random.ints(6000, 0, 400).asLongStream().map(b -> b * b / 400).toArray();
    ShardsFixedRate plain = new ShardsFixedRate(4, 1);
    ShardsFixedRate anchored = new ShardsFixedRate(4, 1);
    for (ShardsFixedRate s : new ShardsFixedRate[] {plain, anchored}) {
      s.addStreamTotals(refs.length, 16, sketchUpdates(refs));
    }
    for (long block : refs) {
      anchor.reference(block);
      if (plain.isSampled(block)) {
        plain.reference(block, false);
        anchored.reference(block, false);
      }
    }
    double exactAtAnchor = anchor.missRatios()[0];
    long hits = Math.round((1 - exactAtAnchor) * refs.length);
    anchored.addLruAnchor(hits / 2, (int) anchorBlocks);  // two batches
    anchored.addLruAnchor(hits - hits / 2, (int) anchorBlocks);
    double[] before = plain.missRatioCurve(sizes).missRatios();
    double[] after = anchored.missRatioCurve(sizes).missRatios();
    int at = (int) anchorBlocks - 1;  // sizes[i] = i + 1 blocks
    assertThat(after[at]).isCloseTo(exactAtAnchor, within(1e-9));
    double shift = after[at] - before[at];
    assertThat(Math.abs(shift)).as("the sample misjudged the anchor's miss ratio").isGreaterThan(0.001);
    double floor = plain.distinctBlocksEstimate() / refs.length;
    double scale = (after[at] - floor) / (before[at] - floor);
    for (int i = 0; i <= at; i++) {
      assertThat(after[i]).as("shifted up to the anchor").isCloseTo(Math.max(0, Math.min(1, before[i] + shift)),
          within(1e-12));
    }
    for (int i = at + 1; i < sizes.length; i++) {
      double expected = before[i] > floor ? floor + (before[i] - floor) * scale : before[i];
      assertThat(after[i]).as("past the anchor, the misses above the cold-miss floor scaled")
          .isCloseTo(expected, within(1e-12));
    }
    assertThat(after[sizes.length - 1]).as("the floor stays").isCloseTo(before[sizes.length - 1], within(1e-12));
    for (int i = 1; i < sizes.length; i++) {
      assertThat(after[i]).as("non-increasing").isLessThanOrEqualTo(after[i - 1]);
    }
    // The state keeps the anchor; a batch without one (an older agent) drops it for good.
    ShardsFixedRate copied = anchored.copy();
    assertThat(copied.missRatioCurve(sizes).missRatios()).containsExactly(after);
    anchored.addLruAnchor(0, 0);
    anchored.addLruAnchor(5, (int) anchorBlocks);
    assertThat(anchored.missRatioCurve(sizes).missRatios()).containsExactly(before);
  }

  @Test
  void aBatchWithoutStreamTotalsFallsBackToClassicShards() {
    ShardsFixedRate withTotals = new ShardsFixedRate(4, 1);
    ShardsFixedRate classic = new ShardsFixedRate(4, 1);
    withTotals.addStreamTotals(40, 16, sketchUpdates(0, 4, 8));
    withTotals.addStreamTotals(0, 0, new int[0]);
    for (long h : new long[] {0, 4, 0, 8, 4}) {
      withTotals.reference(h, false);
      classic.reference(h, false);
    }
    assertThat(withTotals.hasStreamTotals()).isFalse();
    assertThat(withTotals.effectiveRate()).isEqualTo(0.25);
    assertThat(withTotals.missRatioCurve(blockSizes(20)).missRatios())
        .containsExactly(classic.missRatioCurve(blockSizes(20)).missRatios());
    assertThatThrownBy(() -> withTotals.addStreamTotals(1, 12, new int[0]))
        .hasMessageContaining("precision changed from 16 to 12");
  }

  @Test
  void stateSurvivesSerializationAndCopy() throws Exception {
    Random random = new Random(3);
    ShardsFixedRate uninterrupted = new ShardsFixedRate(4, 1);
    ShardsFixedRate first = new ShardsFixedRate(4, 1);
    long[] refs = random.ints(5000, 0, 400).asLongStream().map(b -> b * 4 + (b % 8 == 0 ? 0 : 1)).toArray();
    int[] updates = sketchUpdates(refs);
    uninterrupted.addStreamTotals(5000, 16, updates);
    first.addStreamTotals(5000, 16, updates);
    for (int i = 0; i < 2500; i++) {
      if (uninterrupted.isSampled(refs[i])) {
        uninterrupted.reference(refs[i], i % 3 == 0);
        first.reference(refs[i], i % 3 == 0);
      }
    }
    DataOutputSerializer out = new DataOutputSerializer(1024);
    MrcEstimators.write(first, out);
    ShardsFixedRate restored =
        (ShardsFixedRate) MrcEstimators.read(new DataInputDeserializer(out.getCopyOfBuffer()));
    ShardsFixedRate copied = first.copy();
    for (int i = 2500; i < refs.length; i++) {
      if (uninterrupted.isSampled(refs[i])) {
        uninterrupted.reference(refs[i], i % 3 == 0);
        restored.reference(refs[i], i % 3 == 0);
        copied.reference(refs[i], i % 3 == 0);
      }
    }
    long[] sizes = blockSizes(1601);
    assertThat(uninterrupted.hasStreamTotals()).isTrue();
    for (ShardsFixedRate s : new ShardsFixedRate[] {restored, copied}) {
      assertThat(s.missRatioCurve(sizes).missRatios())
          .containsExactly(uninterrupted.missRatioCurve(sizes).missRatios());
      assertThat(s.readWorkingSetBytes()).isEqualTo(uninterrupted.readWorkingSetBytes());
      assertThat(s.writeWorkingSetBytes()).isEqualTo(uninterrupted.writeWorkingSetBytes());
      assertThat(s.references()).isEqualTo(uninterrupted.references());
      assertThat(s.workingSetBytes()).isEqualTo(uninterrupted.workingSetBytes());
      assertThat(s.consideredReferences()).isEqualTo(5000);
    }
    // The copy is independent of the original.
    assertThat(first.references()).isLessThan(uninterrupted.references());
  }
}
