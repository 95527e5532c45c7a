package io.tierwise.jobs.metrics;

import java.util.List;

/**
 * Front-end latency histograms of one span, one per (direction, vscsiStats ioLength bin), over
 * the agent's bucket bounds {@link #BOUNDS_US} (proto/METRICS.md {@code tierwise.io.latency},
 * log-linear 1-2-5 microseconds). Histograms merge by adding bucket counts, so a rollup's
 * percentiles come from the merged buckets (never from averages). Sparse ({@link SparseCounts}).
 *
 * <p>Cell index = ((direction * {@link IoLengthBins#COUNT}) + bin) * {@link #BUCKETS} + bucket,
 * direction 0 = read, 1 = write; bucket i counts latencies in (BOUNDS_US[i-1], BOUNDS_US[i]],
 * the last bucket those above 1 s.
 */
public class LatencyHistograms extends SparseCounts {
  /** Bucket upper bounds, microseconds (METRICS.md; the agent's kLatencyBoundsUs). */
  public static final long[] BOUNDS_US = {
    1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000,
    1000000
  };
  /** Buckets per histogram (bounds + the open last one). */
  public static final int BUCKETS = BOUNDS_US.length + 1;

  /** For Flink. */
  public LatencyHistograms() {}

  /** Whether OTLP explicit_bounds are exactly {@link #BOUNDS_US}. */
  public static boolean matches(List<Double> explicitBounds) {
    return boundsMatch(explicitBounds, BOUNDS_US);
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
    addDense(cell(write, bin, 0), bucketCounts);
  }

  /** Adds every count of {@code other} into this (saturating). */
  public void add(LatencyHistograms other) {
    merge(other);
  }

  /** An independent copy. */
  public LatencyHistograms copy() {
    LatencyHistograms h = new LatencyHistograms();
    h.cells = cells.clone();
    h.counts = counts.clone();
    return h;
  }
}
