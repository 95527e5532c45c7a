package io.tierwise.jobs.workingset.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class FenwickTreeTest {
  @Test
  void givesEveryPrefixSumAtOnceAsOneAtATime() {
    Random random = new Random(3);
    for (int capacity : new int[] {1, 2, 7, 64, 1_000}) {
      FenwickTree tree = new FenwickTree(capacity);
      for (int i = 0; i < 3 * capacity; i++) {
        tree.add(random.nextInt(capacity), 1 + random.nextInt(3));
      }
      int[] sums = tree.prefixSums();
      assertThat(sums).hasSize(capacity);
      for (int p = 0; p < capacity; p++) {
        assertThat(sums[p]).as("capacity %d, position %d", capacity, p).isEqualTo(tree.prefixSum(p));
      }
    }
  }

  @Test
  void marksTheFirstPositions() {
    FenwickTree tree = FenwickTree.withFirstMarked(10, 4);
    for (int p = 0; p < 10; p++) {
      assertThat(tree.prefixSum(p)).isEqualTo(Math.min(p + 1, 4));
    }
    assertThatThrownBy(() -> FenwickTree.withFirstMarked(3, 4)).isInstanceOf(IllegalArgumentException.class);
  }
}
