package io.tierwise.jobs.workingset.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ReuseDistanceStackTest {
  /**
   * Stack distances and marks against a list kept in LRU order, over a stream long enough to
   * renumber the times many times (the tree's capacity is twice the blocks held), with blocks
   * removed as fixed-size SHARDS removes them.
   */
  @Test
  void givesTheLruStackDistanceOfEveryReferenceAcrossRenumberingsAndRemovals() {
    Random random = new Random(17);
    ReuseDistanceStack stack = new ReuseDistanceStack();
    List<Long> lru = new ArrayList<>(); // most recent first
    List<Long> flags = new ArrayList<>();
    for (int i = 0; i < 200_000; i++) {
      long key = random.nextInt(i < 100_000 ? 300 : 3_000);
      if (random.nextInt(50) == 0) {
        int at = lru.indexOf(key);
        long marks = stack.remove(key);
        assertThat(marks == ReuseDistanceStack.FIRST_REFERENCE).isEqualTo(at < 0);
        if (at >= 0) {
          assertThat(ReuseDistanceStack.flags(marks)).isEqualTo(flags.get(at));
          lru.remove(at);
          flags.remove(at);
        }
        continue;
      }
      long flag = random.nextBoolean() ? ReuseDistanceStack.READ : ReuseDistanceStack.WRITE;
      long answer = stack.reference(key, flag, i / 10_000);
      int at = lru.indexOf(key);
      if (at < 0) {
        assertThat(answer).as("reference %d", i).isEqualTo(ReuseDistanceStack.FIRST_REFERENCE);
        lru.add(0, key);
        flags.add(0, flag);
      } else {
        assertThat(answer >>> 2).as("distance of reference %d", i).isEqualTo(at);
        assertThat(answer & 3).isEqualTo(flags.get(at));
        lru.remove(at);
        flags.add(0, flags.remove(at) | flag);
        lru.add(0, key);
      }
      assertThat(stack.size()).isEqualTo(lru.size());
    }
  }

  @Test
  void keepsEachBlocksEpochsAcrossARenumbering() {
    ReuseDistanceStack stack = new ReuseDistanceStack();
    stack.reference(1, ReuseDistanceStack.READ, 3);
    stack.reference(1, ReuseDistanceStack.WRITE, 5);
    for (int i = 0; i < 1_000; i++) { // well past the first capacities
      stack.reference(2 + i % 40, ReuseDistanceStack.READ, 7);
    }
    stack.reference(1, ReuseDistanceStack.READ, 9);
    assertThat(ReuseDistanceStack.readEpoch(stack.previousMarks())).isEqualTo(3);
    assertThat(ReuseDistanceStack.writeEpoch(stack.previousMarks())).isEqualTo(5);
  }
}
