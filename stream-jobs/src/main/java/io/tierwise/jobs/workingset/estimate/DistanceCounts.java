package io.tierwise.jobs.workingset.estimate;

import java.io.IOException;
import java.util.Arrays;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The re-references of a SHARDS sample by stack distance, weighted by the references each stands
 * for: what {@link ShardsEstimator} reads its miss ratio curve from. Two layouts:
 * {@link SampledDistanceCounts} (exact counts per sampled distance at one fixed rate) and
 * {@link DistanceHistogram} (log-linear buckets of scaled distances, any mix of rates).
 */
interface DistanceCounts {
  /**
   * Counts one re-reference.
   *
   * @param sampledDistance its stack distance among the sampled blocks, &ge; 0
   * @param scale {@code 1 / R_t}, the rate in force: the distance it stands for is
   *     {@code sampledDistance * scale} blocks, and it stands for {@code scale} references
   */
  void add(long sampledDistance, double scale);

  /**
   * The weights themselves (not a copy), in this layout: per sampled distance, or per bucket of
   * scaled distances; {@link MissRatioFunction} reads the weight of the re-references whose scaled
   * distance is below a cache size from them (each layout's {@code weightBelow}).
   */
  double[] weights();

  /**
   * {@code 1 / R} of exact counts per sampled distance ({@link SampledDistanceCounts}), or 0 for
   * buckets of scaled distances ({@link DistanceHistogram}).
   */
  double sampledScale();

  /**
   * Adds {@code factor} times {@code other}'s weights to these, weight by weight: counts of the
   * same layout (and, per sampled distance, the same scale) add up as the references they count.
   *
   * @throws IllegalArgumentException when {@code other} is of another layout or scale
   */
  void addAll(DistanceCounts other, double factor);

  /** An independent deep copy. */
  DistanceCounts copy();

  /** Bytes of {@link #writeTo}. */
  long serializedBytes();

  /** Writes the counts (each layout has its own {@code readFrom}). */
  void writeTo(DataOutputView out) throws IOException;

  /**
   * {@code weights} plus {@code factor} times {@code other}, weight by weight: {@code weights} itself
   * when long enough, else a longer copy.
   */
  static double[] addAll(double[] weights, double[] other, double factor) {
    int used = used(other);
    double[] sum = used > weights.length ? Arrays.copyOf(weights, used) : weights;
    for (int i = 0; i < used; i++) {
      sum[i] += factor * other[i];
    }
    return sum;
  }

  /** Length of {@code weights} without its trailing zeros. */
  static int used(double[] weights) {
    int used = weights.length;
    while (used > 0 && weights[used - 1] == 0) {
      used--;
    }
    return used;
  }

  /** Bytes {@link #write} takes for {@code weights}. */
  static long serializedBytes(double[] weights) {
    return 4 + 8L * used(weights);
  }

  /** Writes {@code weights} without trailing zeros: their count, then each. */
  static void write(DataOutputView out, double[] weights) throws IOException {
    int used = used(weights);
    out.writeInt(used);
    for (int i = 0; i < used; i++) {
      out.writeDouble(weights[i]);
    }
  }

  /**
   * Reads weights written by {@link #write} into an array of at least {@code minLength}.
   *
   * @throws IOException on a read error, or a count below 0 or above {@code maxLength}
   */
  static double[] read(DataInputView in, int minLength, int maxLength) throws IOException {
    int used = in.readInt();
    if (used < 0 || used > maxLength) {
      throw new IOException("inconsistent SHARDS state: " + used + " distance counts (at most " + maxLength + ")");
    }
    double[] weights = new double[Math.max(minLength, used)];
    for (int i = 0; i < used; i++) {
      weights[i] = in.readDouble();
    }
    return weights;
  }
}
