package io.tierwise.jobs.metrics;

import com.google.protobuf.Internal;
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
    int n = 0;
    for (long c : bucketCounts) {
      n += c != 0 ? 1 : 0;
    }
    int[] otherCells = new int[n];
    long[] otherCounts = new long[n];
    n = 0;
    for (int b = 0; b < bucketCounts.length; b++) {
      if (bucketCounts[b] != 0) {
        otherCells[n] = firstCell + b;
        otherCounts[n++] = bucketCounts[b];
      }
    }
    merge(otherCells, otherCounts);
  }

  /** Adds every count of {@code other} into this. */
  protected void merge(SparseCounts other) {
    merge(other.cells, other.counts);
  }

  /**
   * Adds sparse counts (cells increasing, no duplicates). In place when every cell is already
   * kept, as it is once a window has seen its volumes' usual buckets; else into arrays of the
   * union's exact length.
   */
  private void merge(int[] otherCells, long[] otherCounts) {
    int m = otherCells.length;
    if (m == 0) {
      return;
    }
    int missing = 0;
    for (int i = 0, j = 0; j < m; j++) {
      while (i < cells.length && cells[i] < otherCells[j]) {
        i++;
      }
      if (i < cells.length && cells[i] == otherCells[j]) {
        i++;
      } else {
        missing++;
      }
    }
    if (missing == 0) {
      for (int i = 0, j = 0; j < m; i++) {
        if (cells[i] == otherCells[j]) {
          counts[i] = SaturatingCounters.add(counts[i], otherCounts[j++]);
        }
      }
      return;
    }
    int[] c = new int[cells.length + missing];
    long[] v = new long[c.length];
    int i = 0;
    int j = 0;
    for (int n = 0; n < c.length; n++) {
      if (j >= m || (i < cells.length && cells[i] < otherCells[j])) {
        c[n] = cells[i];
        v[n] = counts[i++];
      } else if (i >= cells.length || otherCells[j] < cells[i]) {
        c[n] = otherCells[j];
        v[n] = otherCounts[j++];
      } else {
        c[n] = cells[i];
        v[n] = SaturatingCounters.add(counts[i++], otherCounts[j++]);
      }
    }
    cells = c;
    counts = v;
  }

  /**
   * Whether OTLP explicit_bounds equal {@code bounds} exactly (bit for bit, as {@code
   * Arrays.equals(double[], double[])} compares), read without boxing from protobuf's list: a check
   * made for every histogram point received.
   */
  static boolean boundsMatch(List<Double> explicitBounds, long[] bounds) {
    if (explicitBounds.size() != bounds.length) {
      return false;
    }
    Internal.DoubleList unboxed = explicitBounds instanceof Internal.DoubleList d ? d : null;
    for (int i = 0; i < bounds.length; i++) {
      double bound = unboxed != null ? unboxed.getDouble(i) : explicitBounds.get(i);
      if (Double.doubleToLongBits(bound) != Double.doubleToLongBits(bounds[i])) {
        return false;
      }
    }
    return true;
  }
}
