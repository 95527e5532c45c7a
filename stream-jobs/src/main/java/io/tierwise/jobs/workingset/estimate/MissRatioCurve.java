package io.tierwise.jobs.workingset.estimate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;

/**
 * An LRU miss ratio curve (MRC) sampled at increasing cache sizes: {@code missRatio(i)} is the
 * share of block references that an LRU cache of {@code cacheBytes(i)} bytes would miss
 * (Mattson, Gecsei, Slutz and Traiger, "Evaluation techniques for storage hierarchies", IBM
 * Systems Journal 9(2), 1970). The hit ratio is {@code 1 - missRatio}. Immutable.
 */
public final class MissRatioCurve {
  /** Bytes in one MiB. */
  public static final long MIB = 1L << 20;
  /** Bytes in one GiB. */
  public static final long GIB = 1L << 30;
  /** The smallest cache size of the grid: 4 MiB. */
  public static final long FIRST_CACHE_BYTES = 4 * MIB;
  /** The grid always reaches at least 2 GiB, whatever the working set. */
  public static final long MIN_LARGEST_CACHE_BYTES = 2 * GIB;

  private final long[] cacheBytes;
  private final double[] missRatios;

  /**
   * @param cacheBytes cache sizes in bytes, strictly increasing, at least one
   * @param missRatios miss ratio at each size, each in [0, 1]
   * @throws IllegalArgumentException when the arrays differ in length, are empty, sizes do not
   *     increase, or a ratio is outside [0, 1]
   */
  public MissRatioCurve(long[] cacheBytes, double[] missRatios) {
    if (cacheBytes.length == 0 || cacheBytes.length != missRatios.length) {
      throw new IllegalArgumentException(
          "an MRC needs as many miss ratios as cache sizes (>= 1), got "
              + cacheBytes.length + " sizes and " + missRatios.length + " ratios");
    }
    for (int i = 0; i < cacheBytes.length; i++) {
      if (i > 0 && cacheBytes[i] <= cacheBytes[i - 1]) {
        throw new IllegalArgumentException("MRC cache sizes must increase: " + Arrays.toString(cacheBytes));
      }
      if (!(missRatios[i] >= 0 && missRatios[i] <= 1)) {
        throw new IllegalArgumentException("miss ratio " + missRatios[i] + " outside [0, 1]");
      }
    }
    this.cacheBytes = cacheBytes.clone();
    this.missRatios = missRatios.clone();
  }

  /**
   * The cache sizes at which Tierwise evaluates an MRC: from 4 MiB, doubling with a half step
   * in between (4, 6, 8, 12, 16, 24, 32 MiB, ...: each power of two and 1.5 times it), up to the
   * first size that is at least {@code max(2 GiB, 2 x workingSetBytes)}. Past twice the working
   * set every reuse distance is covered, so the last point gives the cold-miss floor.
   *
   * @param workingSetBytes estimated working set size in bytes (&ge; 0)
   * @return sizes in bytes, increasing, each a multiple of 4 KiB
   */
  public static long[] cacheSizeGrid(long workingSetBytes) {
    long largest = Math.max(MIN_LARGEST_CACHE_BYTES, 2 * Math.max(0, workingSetBytes));
    List<Long> sizes = new ArrayList<>();
    for (long power = FIRST_CACHE_BYTES; ; power *= 2) {
      sizes.add(power);
      if (power >= largest) {
        break;
      }
      long halfStep = power + power / 2;
      sizes.add(halfStep);
      if (halfStep >= largest) {
        break;
      }
    }
    return sizes.stream().mapToLong(Long::longValue).toArray();
  }

  /** Number of points. */
  public int size() {
    return cacheBytes.length;
  }

  /** Cache size of point {@code i}, bytes. */
  public long cacheBytes(int i) {
    return cacheBytes[i];
  }

  /** Miss ratio of point {@code i}, in [0, 1]. */
  public double missRatio(int i) {
    return missRatios[i];
  }

  /** Hit ratio of point {@code i}: {@code 1 - missRatio(i)}. */
  public double hitRatio(int i) {
    return 1 - missRatios[i];
  }

  /** The cache sizes, bytes (a copy). */
  public long[] cacheBytes() {
    return cacheBytes.clone();
  }

  /** The miss ratios (a copy). */
  public double[] missRatios() {
    return missRatios.clone();
  }

  /**
   * The hit ratio at the largest size: with the grid of {@link #cacheSizeGrid} this is what an
   * unlimited cache reaches, {@code 1 - cold misses / references} (DESIGN section 4).
   */
  public double achievableHitRatio() {
    return hitRatio(size() - 1);
  }

  /**
   * The first (smallest) point whose hit ratio is at least {@code targetHitRatio}, or empty when
   * none reaches it.
   */
  public OptionalInt smallestReaching(double targetHitRatio) {
    for (int i = 0; i < size(); i++) {
      if (hitRatio(i) >= targetHitRatio) {
        return OptionalInt.of(i);
      }
    }
    return OptionalInt.empty();
  }

  /**
   * Mean absolute error of this curve's miss ratios against {@code exact}'s, over the points of
   * {@code exact} (the metric of the SHARDS paper, section 5.1).
   *
   * @throws IllegalArgumentException when the two curves have different cache sizes
   */
  public double meanAbsoluteError(MissRatioCurve exact) {
    if (!Arrays.equals(cacheBytes, exact.cacheBytes)) {
      throw new IllegalArgumentException("MAE needs the same cache sizes: "
          + Arrays.toString(cacheBytes) + " vs " + Arrays.toString(exact.cacheBytes));
    }
    double sum = 0;
    for (int i = 0; i < size(); i++) {
      sum += Math.abs(missRatios[i] - exact.missRatios[i]);
    }
    return sum / size();
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("MRC[");
    for (int i = 0; i < size(); i++) {
      s.append(i == 0 ? "" : ", ").append(cacheBytes[i] / MIB).append("MiB=")
          .append(String.format("%.4f", missRatios[i]));
    }
    return s.append(']').toString();
  }
}
