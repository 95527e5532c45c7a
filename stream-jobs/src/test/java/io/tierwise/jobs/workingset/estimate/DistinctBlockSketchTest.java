package io.tierwise.jobs.workingset.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tierwise.jobs.testing.SketchRegisters;
import java.util.SplittableRandom;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class DistinctBlockSketchTest {
  /** A sketch of {@code distinct} random block hashes, each added twice, through agent-side registers. */
  private static DistinctBlockSketch sketchOf(int precision, int distinct, long seed) {
    SketchRegisters agent = new SketchRegisters(precision);
    DistinctBlockSketch sketch = new DistinctBlockSketch(precision);
    for (int round = 0; round < 2; round++) {
      SplittableRandom random = new SplittableRandom(seed);
      for (int i = 0; i < distinct; i++) {
        agent.add(random.nextLong());
        if (i % 1000 == 0) {
          merge(sketch, agent.drainUpdates()); // one batch every 1000 blocks
        }
      }
    }
    merge(sketch, agent.drainUpdates());
    return sketch;
  }

  private static void merge(DistinctBlockSketch sketch, int[] updates) {
    for (int u : updates) {
      sketch.merge(u);
    }
  }

  @Test
  void estimatesDistinctBlocksWithinFourStandardErrorsFromFewToMillions() {
    assertThat(new DistinctBlockSketch(16).estimate()).isZero();
    for (int distinct : new int[] {1, 10, 100, 1_000, 10_000, 269_210, 2_000_000}) {
      // Relative standard error 1.04 / 2^8 (HyperLogLog); far below 2^16 the estimate is nearly exact.
      assertThat(sketchOf(16, distinct, distinct).estimate()).as("%d distinct blocks", distinct)
          .isCloseTo(distinct, within(Math.max(0.5, 4 * 1.04 / 256 * distinct)));
    }
  }

  @Test
  void isUnbiasedWhereTheClassicEstimatorNeedsCorrections() {
    // n = 2.5 m is where classic HyperLogLog switches from linear counting and is biased.
    int precision = 10;
    int distinct = 2560;
    double sum = 0;
    int trials = 40;
    for (int t = 0; t < trials; t++) {
      sum += sketchOf(precision, distinct, 1000 + t).estimate() / distinct - 1;
    }
    // Mean of 40 relative errors, each with standard error 1.04 / 32: 4 standard errors of the mean.
    assertThat(sum / trials).isCloseTo(0, within(4 * 1.04 / 32 / Math.sqrt(trials)));
  }

  @Test
  void mergeIsAnElementWiseMaximumInAnyOrderAcrossTheDenseSwitch() {
    SketchRegisters agent = new SketchRegisters(8);
    SplittableRandom random = new SplittableRandom(5);
    for (int i = 0; i < 500; i++) {
      agent.add(random.nextLong());
    }
    int[] updates = agent.drainUpdates();
    DistinctBlockSketch forward = new DistinctBlockSketch(8);
    DistinctBlockSketch backward = new DistinctBlockSketch(8);
    for (int i = 0; i < updates.length; i++) {
      forward.merge(updates[i]);
      backward.merge(updates[updates.length - 1 - i]);
      backward.merge(updates[updates.length - 1 - i] & ~0xFF | 1); // a lower value changes nothing
    }
    assertThat(updates.length).as("past 2^8 / 16 registers the sketch is dense").isGreaterThan(16);
    assertThat(backward.estimate()).isEqualTo(forward.estimate()).isCloseTo(500, within(4 * 1.04 / 16 * 500));
  }

  @Test
  void rejectsRegistersOutsideThePrecision() {
    DistinctBlockSketch s = new DistinctBlockSketch(16);
    assertThatThrownBy(() -> s.merge(0x1_0000 << 8 | 1)).hasMessageContaining("index 65536 is not below 2^16");
    assertThatThrownBy(() -> s.merge(7 << 8)).hasMessageContaining("register 7 value 0 is not in 1..25");
    assertThatThrownBy(() -> s.merge(7 << 8 | 26)).hasMessageContaining("value 26");
    assertThatThrownBy(() -> new DistinctBlockSketch(19)).hasMessageContaining("must be in 4..18, got 19");
  }

  @Test
  void registersFollowTheAgentsDefinition() {
    // Same vectors as the agent's DistinctBlockSketch test (edge-agent/tests/sampling_test.cpp).
    assertThat(SketchRegisters.index(0xABCD_0000_0000_0000L, 16)).isEqualTo(0xABCD);
    assertThat(SketchRegisters.value(0xABCD_0000_0000_0000L, 16)).isEqualTo(25);
    assertThat(SketchRegisters.value(0x0000_8000_0000_0000L, 16)).isEqualTo(1);
    assertThat(SketchRegisters.value(0x0000_0000_0100_0000L, 16)).isEqualTo(24);
    assertThat(SketchRegisters.value(0x0000_0000_00FF_FFFFL, 16)).isEqualTo(25);
  }

  @Test
  void survivesSerializationSparseAndDense() throws Exception {
    for (int distinct : new int[] {50, 50_000}) {
      DistinctBlockSketch s = sketchOf(16, distinct, 9);
      DataOutputSerializer out = new DataOutputSerializer(256);
      s.writeTo(out);
      DistinctBlockSketch back = DistinctBlockSketch.readFrom(new DataInputDeserializer(out.getCopyOfBuffer()));
      assertThat(back.estimate()).isEqualTo(s.estimate());
      assertThat(back.copy().estimate()).isEqualTo(s.estimate());
      assertThat(out.length()).as("%d blocks", distinct).isLessThanOrEqualTo(distinct < 1000 ? 1000 : 70_000);
    }
  }
}
