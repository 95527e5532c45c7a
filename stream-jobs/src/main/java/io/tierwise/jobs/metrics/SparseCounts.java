package io.tierwise.jobs.metrics;

import java.util.Arrays;
import java.util.List;

/**
 * Counts over a fixed numbering of cells (histogram buckets of several histograms), sparse: only
 * the non-zero cells are kept, in increasing cell order (a Flink POJO base of {@link
 * LatencyHistograms} and {@link WorkloadHistograms}). Adding merges the sorted vectors,
 * saturating ({@link SaturatingCounters}), so merged histograms keep exact bucket counts.
 */
public class SparseCounts {
  /** Non-zero cells, increasing. */
  public int[] cells = new int[0];
  /** Counts of {@link #cells}, same length. */
  public long[] counts = new long[0];

  /** For Flink. */
  public SparseCounts() {}

  /** Adds dense {@code bucketCounts} at cells {@code firstCell}, {@code firstCell + 1}, .... */
  protected void addDense(int firstCell, long[] bucketCounts) {
    SparseCounts one = new SparseCounts();
    int n = 0;
    one.cells = new int[bucketCounts.length];
    one.counts = new long[bucketCounts.length];
    for (int b = 0; b < bucketCounts.length; b++) {
      if (bucketCounts[b] != 0) {
        one.cells[n] = firstCell + b;
        one.counts[n++] = bucketCounts[b];
      }
    }
    one.cells = Arrays.copyOf(one.cells, n);
    one.counts = Arrays.copyOf(one.counts, n);
    merge(one);
  }

  /** Adds every count of {@code other} into this. */
  protected void merge(SparseCounts other) {
    if (other.cells.length == 0) {
      return;
    }
    int[] c = new int[cells.length + other.cells.length];
    long[] v = new long[c.length];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < cells.length || j < other.cells.length) {
      if (j >= other.cells.length || (i < cells.length && cells[i] < other.cells[j])) {
        c[n] = cells[i];
        v[n++] = counts[i++];
      } else if (i >= cells.length || other.cells[j] < cells[i]) {
        c[n] = other.cells[j];
        v[n++] = other.counts[j++];
      } else {
        c[n] = cells[i];
        v[n++] = SaturatingCounters.add(counts[i++], other.counts[j++]);
      }
    }
    cells = Arrays.copyOf(c, n);
    counts = Arrays.copyOf(v, n);
  }

  /** Whether OTLP explicit_bounds equal {@code bounds} exactly. */
  static boolean boundsMatch(List<Double> explicitBounds, long[] bounds) {
    return explicitBounds.size() == bounds.length
        && Arrays.equals(explicitBounds.stream().mapToDouble(Double::doubleValue).toArray(),
            Arrays.stream(bounds).asDoubleStream().toArray());
  }
}
