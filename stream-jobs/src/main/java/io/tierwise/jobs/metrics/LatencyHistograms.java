package io.tierwise.jobs.metrics;

import java.util.Arrays;
import java.util.List;

/**
 * Front-end latency histograms of one span, one per (direction, vscsiStats ioLength bin), over
 * the agent's bucket bounds {@link #BOUNDS_US} (proto/METRICS.md {@code tierwise.io.latency},
 * log-linear 1-2-5 microseconds). Histograms merge by adding bucket counts, so a rollup's
 * percentiles come from the merged buckets (never from averages). Sparse: only the non-zero
 * cells are kept, in increasing cell order (a Flink POJO).
 *
 * <p>Cell index = ((direction * {@link IoLengthBins#COUNT}) + bin) * {@link #BUCKETS} + bucket,
 * direction 0 = read, 1 = write; bucket i counts latencies in (BOUNDS_US[i-1], BOUNDS_US[i]],
 * the last bucket those above 1 s.
 */
public class LatencyHistograms {
  /** Bucket upper bounds, microseconds (METRICS.md; the agent's kLatencyBoundsUs). */
  public static final long[] BOUNDS_US = {
    1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000,
    1000000
  };
  /** Buckets per histogram (bounds + the open last one). */
  public static final int BUCKETS = BOUNDS_US.length + 1;

  /** Non-zero cells, increasing. */
  public int[] cells = new int[0];
  /** Counts of {@link #cells}, same length. */
  public long[] counts = new long[0];

  /** For Flink. */
  public LatencyHistograms() {}

  /** Whether OTLP explicit_bounds are exactly {@link #BOUNDS_US}. */
  public static boolean matches(List<Double> explicitBounds) {
    return explicitBounds.size() == BOUNDS_US.length
        && Arrays.equals(explicitBounds.stream().mapToDouble(Double::doubleValue).toArray(),
            Arrays.stream(BOUNDS_US).asDoubleStream().toArray());
  }

  /** The cell of (write?, ioLength bin, bucket). */
  public static int cell(boolean write, int bin, int bucket) {
    return ((write ? 1 : 0) * IoLengthBins.COUNT + bin) * BUCKETS + bucket;
  }

  /**
   * Adds one histogram's {@link #BUCKETS} bucket counts for (direction, bin).
   *
   * @throws IllegalArgumentException when {@code bucketCounts} does not have {@link #BUCKETS} entries
   */
  public void add(boolean write, int bin, long[] bucketCounts) {
    if (bucketCounts.length != BUCKETS) {
      throw new IllegalArgumentException(bucketCounts.length + " latency buckets, expected " + BUCKETS);
    }
    LatencyHistograms one = new LatencyHistograms();
    int n = 0;
    one.cells = new int[BUCKETS];
    one.counts = new long[BUCKETS];
    for (int b = 0; b < BUCKETS; b++) {
      if (bucketCounts[b] != 0) {
        one.cells[n] = cell(write, bin, b);
        one.counts[n++] = bucketCounts[b];
      }
    }
    one.cells = Arrays.copyOf(one.cells, n);
    one.counts = Arrays.copyOf(one.counts, n);
    add(one);
  }

  /** Adds every count of {@code other} into this (a merge of sorted sparse vectors, saturating). */
  public void add(LatencyHistograms other) {
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

  /** An independent copy. */
  public LatencyHistograms copy() {
    LatencyHistograms h = new LatencyHistograms();
    h.cells = cells.clone();
    h.counts = counts.clone();
    return h;
  }
}
