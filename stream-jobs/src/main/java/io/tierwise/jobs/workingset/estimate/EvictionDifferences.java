package io.tierwise.jobs.workingset.estimate;

import io.tierwise.jobs.workingset.estimate.eviction.EvictionPolicy;
import java.util.Arrays;
import java.util.function.DoubleSupplier;
import java.util.function.IntToDoubleFunction;

/**
 * Each simulated eviction policy's miss ratio less LRU's on the grid of a stream's {@link
 * MiniatureSimulations} (a Flink POJO), all references and reads only: what a policy's curve adds
 * to a window's LRU curve ({@link WindowedEstimators#evictionMissRatio}), apart from the
 * simulations (their caches are most of a stream's state; this is a few hundred numbers), so that
 * it answers at any size exactly as the simulations did when it was taken ({@link WindowEstimate}).
 */
public class EvictionDifferences {
  /** The policies of the rows ({@link EvictionPolicy#name}), in the simulations' order. */
  public String[] policies = new String[0];
  /** The simulations' grid, bytes, increasing. */
  public long[] cacheBytes = new long[0];
  /** Per policy, its miniature miss ratio less miniature LRU's at each size, all references. */
  public double[][] differences = new double[0][];
  /** The same over the reads. */
  public double[][] readDifferences = new double[0][];

  /** For Flink. */
  public EvictionDifferences() {}

  /**
   * A policy's miss ratio at any size given LRU's there and the cold-miss ratio, as {@link
   * WindowedEstimators#evictionMissRatio} gives it.
   *
   * @throws IllegalArgumentException when the policy is not simulated or {@code cacheBytes < 1}
   */
  public double missRatio(EvictionPolicy policy, long cacheBytes, double lruMissRatio, double coldMissRatio,
      boolean readsOnly) {
    return fromLru(policy, lruMissRatio, coldMissRatio, () -> difference(policy, cacheBytes, readsOnly));
  }

  /**
   * The policy's difference from LRU at {@code cacheBytes}, as {@link MiniatureSimulations#difference}.
   *
   * @throws IllegalArgumentException when the policy is not simulated or {@code cacheBytes < 1}
   */
  public double difference(EvictionPolicy policy, long cacheBytes, boolean readsOnly) {
    int p = Arrays.asList(policies).indexOf(policy.name());
    if (p < 0) {
      throw new IllegalArgumentException(policy + " is not simulated; these are: " + Arrays.toString(policies));
    }
    double[] row = (readsOnly ? readDifferences : differences)[p];
    return interpolate(this.cacheBytes, cacheBytes, i -> row[i]);
  }

  /**
   * LRU's miss ratio for LRU; else LRU's plus the policy's {@code difference}, clipped to [cold-miss
   * ratio, 1] (no policy misses less than the first references; LRU's own where it is below that).
   */
  static double fromLru(EvictionPolicy policy, double lruMissRatio, double coldMissRatio, DoubleSupplier difference) {
    if (policy == EvictionPolicy.LRU) {
      return lruMissRatio;
    }
    double missRatio = lruMissRatio + difference.getAsDouble();
    return Math.min(1, Math.max(Math.min(coldMissRatio, lruMissRatio), missRatio));
  }

  /**
   * A value on grid {@code sizes} at {@code cacheBytes}: {@code at(i)} on a size of the grid;
   * between two, interpolated linearly in the logarithm of the size; below the first, the first
   * size's; above the last, 0 (so 0 everywhere on an empty grid: nothing simulated yet).
   *
   * @throws IllegalArgumentException when {@code cacheBytes < 1}
   */
  static double interpolate(long[] sizes, long cacheBytes, IntToDoubleFunction at) {
    if (cacheBytes < 1) {
      throw new IllegalArgumentException("cache size must be at least 1 byte, got " + cacheBytes);
    }
    int i = Arrays.binarySearch(sizes, cacheBytes);
    if (i >= 0) {
      return at.applyAsDouble(i);
    }
    int above = -i - 1;
    if (above == sizes.length) {
      return 0;
    }
    if (above == 0) {
      return at.applyAsDouble(0);
    }
    double t = Math.log((double) cacheBytes / sizes[above - 1]) / Math.log((double) sizes[above] / sizes[above - 1]);
    return (1 - t) * at.applyAsDouble(above - 1) + t * at.applyAsDouble(above);
  }
}
