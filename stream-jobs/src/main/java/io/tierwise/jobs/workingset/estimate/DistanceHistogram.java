package io.tierwise.jobs.workingset.estimate;

import java.io.IOException;
import java.util.Arrays;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Weighted histogram of scaled stack distances (estimated true LRU distances, in 4 KiB blocks) in
 * log-linear buckets, the layout of HdrHistogram (G. Tene): distances below 64 in buckets of width
 * 1, then every power-of-two range [2^e, 2^(e+1)) split into 64 equal buckets (relative width
 * at most 1/64 = 1.6 %). Memory is bounded by the largest distance's magnitude (about 1,500
 * buckets, 12 KiB, for distances up to 2^28 blocks = 1 TiB), not by the sample. Every size of
 * {@link MissRatioCurve#cacheSizeGrid} (a power of two times 4 MiB, or 1.5 times it) is a bucket
 * boundary, so the MRC there is exact; between boundaries the weight is interpolated linearly.
 */
final class DistanceHistogram implements DistanceCounts {
  private static final int SUB_BITS = 6;
  private static final int SUB = 1 << SUB_BITS;
  private static final int MAX_EXPONENT = 62;
  /** The largest bucket: the exponent clipped at {@value #MAX_EXPONENT}. */
  static final int MAX_BUCKET = SUB + (MAX_EXPONENT - SUB_BITS) * SUB + SUB - 1;

  private double[] weights;

  /** Empty, with no bucket allocated: most volumes of a fleet have few or no re-references. */
  DistanceHistogram() {
    this(new double[0]);
  }

  private DistanceHistogram(double[] weights) {
    this.weights = weights;
  }

  /** Bucket of distance {@code x} (&ge; 0). */
  static int index(double x) {
    if (x < SUB) {
      return (int) x;
    }
    int exponent = Math.min(Math.getExponent(x), MAX_EXPONENT);
    int shift = exponent - SUB_BITS;
    int mantissa = (int) Math.min(2 * SUB - 1, Math.scalb(x, -shift));
    return SUB + shift * SUB + (mantissa - SUB);
  }

  /** The smallest distance of bucket {@code i}. */
  static double lowerBound(int i) {
    if (i < SUB) {
      return i;
    }
    int shift = (i - SUB) / SUB;
    return Math.scalb((double) (SUB + (i - SUB) % SUB), shift);
  }

  /** Adds {@code scale} at distance {@code sampledDistance * scale} blocks. */
  @Override
  public void add(long sampledDistance, double scale) {
    addToBucket(index(sampledDistance * scale), scale);
  }

  /**
   * Adds {@code weight} to bucket {@code bucket} (0 .. {@link #MAX_BUCKET}): re-references the agent
   * counted ({@link WindowShares}).
   */
  void addToBucket(int bucket, double weight) {
    if (bucket >= weights.length) {
      weights = Arrays.copyOf(weights, Math.max(bucket + 1, 2 * weights.length));
    }
    weights[bucket] += weight;
  }

  /**
   * The weight in buckets {@code weights} of the distances below each of {@code limits} (blocks,
   * increasing): the references an LRU cache of that many blocks hits. Between bucket boundaries
   * the weight is interpolated linearly.
   */
  static double[] weightBelow(double[] weights, double[] limits) {
    double[] below = new double[limits.length];
    double sum = 0;
    int bucket = 0;
    for (int k = 0; k < limits.length; k++) {
      while (bucket < weights.length && lowerBound(bucket + 1) <= limits[k]) {
        sum += weights[bucket++];
      }
      double partial = 0;
      if (bucket < weights.length && lowerBound(bucket) < limits[k]) {
        double lo = lowerBound(bucket);
        partial = weights[bucket] * (limits[k] - lo) / (lowerBound(bucket + 1) - lo);
      }
      below[k] = sum + partial;
    }
    return below;
  }

  @Override
  public double[] weights() {
    return weights;
  }

  @Override
  public double sampledScale() {
    return 0;
  }

  @Override
  public void addAll(DistanceCounts other, double factor) {
    if (!(other instanceof DistanceHistogram)) {
      throw new IllegalArgumentException("a histogram of scaled distances cannot add " + other.getClass().getSimpleName());
    }
    weights = DistanceCounts.addAll(weights, other.weights(), factor);
  }

  @Override
  public DistanceHistogram copy() {
    return new DistanceHistogram(weights.clone());
  }

  @Override
  public long serializedBytes() {
    return DistanceCounts.serializedBytes(weights);
  }

  @Override
  public void writeTo(DataOutputView out) throws IOException {
    DistanceCounts.write(out, weights);
  }

  /** The histogram {@link #writeTo} wrote, with the buckets written and no more (none when empty, as a new one). */
  static DistanceHistogram readFrom(DataInputView in) throws IOException {
    return new DistanceHistogram(DistanceCounts.read(in, 0, SUB + (MAX_EXPONENT - SUB_BITS + 1) * SUB));
  }
}
