package io.tierwise.jobs.workingset.estimate;

import java.io.IOException;
import java.util.Arrays;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Re-references counted by sampled stack distance at one fixed rate {@code R}: exact (no
 * buckets), so the curve is exact at any cache size, and at {@code R = 1} equals the exact LRU
 * MRC. A re-reference with sampled distance {@code d} stands for {@code 1 / R} references at
 * distance {@code d / R} (SHARDS section 3.1). Memory: 8 bytes per sampled distance up to the
 * largest seen, which is below the sampled blocks; counts are whole numbers in doubles (exact up
 * to 2^53). Not thread-safe.
 */
final class SampledDistanceCounts implements DistanceCounts {
  private final double scale;
  /** counts[d]: re-references with sampled distance d (whole numbers). */
  private double[] counts;

  /** Empty counts at {@code scale = 1 / R}. */
  SampledDistanceCounts(double scale) {
    this(scale, new double[16]);
  }

  private SampledDistanceCounts(double scale, double[] counts) {
    this.scale = scale;
    this.counts = counts;
  }

  /** @throws IllegalArgumentException when {@code scale} is not the one these counts are at */
  @Override
  public void add(long sampledDistance, double scale) {
    if (scale != this.scale) {
      throw new IllegalArgumentException("fixed-rate counts at 1/R = " + this.scale + " got 1/R = " + scale);
    }
    if (sampledDistance >= counts.length) {
      counts = Arrays.copyOf(counts, (int) Math.max(sampledDistance + 1, 2L * counts.length));
    }
    counts[(int) sampledDistance]++;
  }

  /**
   * The weight of the re-references of {@code counts} (per sampled distance, at {@code scale = 1 /
   * R}) whose scaled distance is below each of {@code limits} (blocks, increasing): the references
   * an LRU cache of that many blocks hits.
   */
  static double[] weightBelow(double[] counts, double scale, double[] limits) {
    double[] below = new double[limits.length];
    double sum = 0;
    int d = 0;
    for (int k = 0; k < limits.length; k++) {
      // d / R < limit, i.e. d < limit * R.
      while (d < counts.length && d * scale < limits[k]) {
        sum += counts[d++];
      }
      below[k] = sum * scale;
    }
    return below;
  }

  @Override
  public double[] weights() {
    return counts;
  }

  @Override
  public double sampledScale() {
    return scale;
  }

  @Override
  public void addAll(DistanceCounts other, double factor) {
    if (other.sampledScale() != scale) {
      throw new IllegalArgumentException("fixed-rate counts at 1/R = " + scale + " cannot add counts at 1/R = "
          + other.sampledScale());
    }
    counts = DistanceCounts.addAll(counts, other.weights(), factor);
  }

  @Override
  public SampledDistanceCounts copy() {
    return new SampledDistanceCounts(scale, counts.clone());
  }

  @Override
  public long serializedBytes() {
    return DistanceCounts.serializedBytes(counts);
  }

  @Override
  public void writeTo(DataOutputView out) throws IOException {
    DistanceCounts.write(out, counts);
  }

  /**
   * Reads counts written by {@link #writeTo} at {@code scale = 1 / R}.
   *
   * @throws IOException on a read error or an inconsistent length
   */
  static SampledDistanceCounts readFrom(DataInputView in, double scale) throws IOException {
    return new SampledDistanceCounts(scale, DistanceCounts.read(in, 16, Integer.MAX_VALUE - 8));
  }
}
