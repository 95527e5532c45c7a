package io.tierwise.jobs.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SparseCountsTest {
  private static SparseCounts of(int[] cells, long[] counts) {
    SparseCounts s = new SparseCounts();
    s.cells = cells;
    s.counts = counts;
    return s;
  }

  @Test
  void mergesNewCellsInOrderAndAddsTheCountsOfCellsAlreadyKept() {
    SparseCounts s = of(new int[] {2, 5, 9}, new long[] {1, 1, 1});
    s.merge(of(new int[] {0, 5, 7, 12}, new long[] {3, 4, 5, 6}));
    assertThat(s.cells).containsExactly(0, 2, 5, 7, 9, 12);
    assertThat(s.counts).containsExactly(3, 1, 5, 5, 1, 6);
  }

  @Test
  void addsInPlaceWhenEveryCellIsKeptAndNeverSharesTheOthersArrays() {
    SparseCounts s = new SparseCounts();
    SparseCounts first = of(new int[] {1, 4}, new long[] {2, 2});
    s.merge(first);
    int[] cells = s.cells;
    s.merge(of(new int[] {4}, new long[] {5}));
    assertThat(s.cells).isSameAs(cells);
    assertThat(s.counts).containsExactly(2, 7);
    assertThat(first.counts).as("the merged-in counts are not written").containsExactly(2, 2);
  }

  @Test
  void addsDenseCountsSkippingZeros() {
    SparseCounts s = of(new int[] {11}, new long[] {1});
    s.addDense(10, new long[] {0, 2, 0, 3});
    assertThat(s.cells).containsExactly(11, 13);
    assertThat(s.counts).containsExactly(3, 3);
  }

  @Test
  void saturatesInsteadOfOverflowing() {
    SparseCounts s = of(new int[] {1}, new long[] {Long.MAX_VALUE - 1});
    s.merge(of(new int[] {1}, new long[] {5}));
    assertThat(s.counts[0]).isEqualTo(Long.MAX_VALUE);
  }
}
