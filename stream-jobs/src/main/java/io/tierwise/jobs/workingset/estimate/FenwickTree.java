package io.tierwise.jobs.workingset.estimate;

import java.util.Arrays;

/**
 * Binary indexed tree over the positions {@code 0 .. capacity-1} holding small non-negative
 * counts: point update and prefix sum in O(log capacity).
 *
 * <p>Source: P. M. Fenwick, "A new data structure for cumulative frequency tables", Software:
 * Practice and Experience 24(3), 1994. Used by {@link ShardsFixedRate} as the order-statistics
 * structure over access times (one live mark per block at its last access), the approach of
 * Bennett and Kruskal, "LRU stack processing", IBM J. R&amp;D 19(4), 1975.
 */
final class FenwickTree {
  /** 1-based: tree[i] covers positions (i - lowbit(i), i]. */
  private final int[] tree;

  /**
   * An all-zero tree.
   *
   * @param capacity number of positions (&ge; 1)
   * @throws IllegalArgumentException when capacity &lt; 1
   */
  FenwickTree(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("Fenwick tree capacity must be >= 1, got " + capacity);
    }
    this.tree = new int[capacity + 1];
  }

  /**
   * A tree with count 1 at each given position and 0 elsewhere, built in O(capacity).
   *
   * @param capacity number of positions (&ge; 1)
   * @param marked positions to set to 1, each in {@code [0, capacity)}, no duplicates
   * @throws IndexOutOfBoundsException when a position is outside the tree
   */
  static FenwickTree withMarks(int capacity, int[] marked) {
    FenwickTree t = new FenwickTree(capacity);
    for (int p : marked) {
      if (p < 0 || p >= capacity) {
        throw new IndexOutOfBoundsException("position " + p + " outside [0, " + capacity + ")");
      }
      t.tree[p + 1] += 1;
    }
    t.accumulate();
    return t;
  }

  /**
   * A tree with count 1 at positions {@code 0 .. marks-1} and 0 elsewhere, built in O(capacity).
   *
   * @throws IllegalArgumentException when capacity &lt; 1 or {@code marks} is outside {@code [0, capacity]}
   */
  static FenwickTree withFirstMarked(int capacity, int marks) {
    FenwickTree t = new FenwickTree(capacity);
    if (marks < 0 || marks > capacity) {
      throw new IllegalArgumentException(marks + " marks in a tree of capacity " + capacity);
    }
    Arrays.fill(t.tree, 1, marks + 1, 1);
    t.accumulate();
    return t;
  }

  /** Turns point counts at {@code tree[1..capacity]} into the tree, in O(capacity). */
  private void accumulate() {
    for (int i = 1; i < tree.length; i++) {
      int parent = i + (i & -i);
      if (parent < tree.length) {
        tree[parent] += tree[i];
      }
    }
  }

  /**
   * Every prefix sum at once, {@code sums[p] = prefixSum(p)} for {@code p} in {@code [0,
   * capacity)}, in O(capacity): the point counts are recovered by undoing {@link #accumulate} (in
   * reverse order), then summed in order.
   */
  int[] prefixSums() {
    int[] sums = tree.clone();
    for (int i = sums.length - 1; i >= 1; i--) {
      int parent = i + (i & -i);
      if (parent < sums.length) {
        sums[parent] -= sums[i];
      }
    }
    for (int i = 2; i < sums.length; i++) {
      sums[i] += sums[i - 1];
    }
    return Arrays.copyOfRange(sums, 1, sums.length);
  }

  /** Number of positions. */
  int capacity() {
    return tree.length - 1;
  }

  /**
   * Adds {@code delta} to the count at {@code position}.
   *
   * @throws IndexOutOfBoundsException when position is outside {@code [0, capacity)}
   */
  void add(int position, int delta) {
    checkPosition(position);
    for (int i = position + 1; i < tree.length; i += i & -i) {
      tree[i] += delta;
    }
  }

  /**
   * Sum of the counts at positions {@code 0 .. position} (inclusive); 0 when position is -1.
   *
   * @throws IndexOutOfBoundsException when position is outside {@code [-1, capacity)}
   */
  int prefixSum(int position) {
    if (position != -1) {
      checkPosition(position);
    }
    int sum = 0;
    for (int i = position + 1; i > 0; i -= i & -i) {
      sum += tree[i];
    }
    return sum;
  }

  private void checkPosition(int position) {
    if (position < 0 || position >= capacity()) {
      throw new IndexOutOfBoundsException(
          "position " + position + " outside [0, " + capacity() + ")");
    }
  }

  /** An independent copy. */
  FenwickTree copy() {
    FenwickTree c = new FenwickTree(capacity());
    System.arraycopy(tree, 0, c.tree, 0, tree.length);
    return c;
  }
}
