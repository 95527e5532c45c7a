package io.tierwise.jobs.workingset.estimate;

import java.util.Arrays;

/**
 * A SHARDS estimate's LRU miss ratio as a function of the cache size (a Flink POJO): what {@link
 * ShardsEstimator} computes its curve from (the re-references' weights by distance, the
 * normalisation, the LRU anchor; its class comment has the maths), apart from the estimator. The
 * estimator evaluates its curve through it, and a detached copy ({@link
 * MrcEstimator#missRatioFunction}) answers at any size exactly as the estimator did when it was
 * taken, at a fraction of the estimator's state ({@link WindowEstimate}: what the recommender
 * reads, on another operator). Its weights are at most about 12 KiB with fixed-size SHARDS (the
 * distance histogram), 8 bytes per sampled distance with fixed-rate.
 */
public class MissRatioFunction {
  /**
   * {@code 1 / R} of {@link #hitWeights} counted per sampled distance at one fixed rate ({@link
   * SampledDistanceCounts}); 0: weights per bucket of scaled distances ({@link DistanceHistogram}).
   */
  public double sampledScale;
  /** The re-references' weights by distance, in the layout of {@link #sampledScale}. */
  public double[] hitWeights = new double[0];
  /** {@code W}: the weight of every sampled reference (the references they stand for). */
  public double total;
  /** What the misses are normalised by: {@code N / k} with the stream totals, else {@code W}. */
  public double expected;
  /** {@code k = B / C}, the ratio estimator's calibration (1 without the stream totals). */
  public double k = 1;
  /** Whether the curve is made to pass through the agent's exact LRU miss ratio at {@link #anchorBytes}. */
  public boolean anchored;
  /** The size of the agent's exact LRU cache, bytes. */
  public long anchorBytes;
  /** Its exact miss ratio, {@code 1 - A / N}. */
  public double anchorMissRatio;
  /** The cold-miss floor {@code B / N}. */
  public double floor;

  /** For Flink. */
  public MissRatioFunction() {}

  /**
   * The function of re-references {@code hits}: their weights themselves (the estimator's own
   * evaluation), or a copy without trailing zeros ({@code detached}; the same values: zero weights
   * add nothing).
   */
  static MissRatioFunction of(DistanceCounts hits, double total, double expected, double k, boolean detached) {
    MissRatioFunction f = new MissRatioFunction();
    double[] weights = hits.weights();
    f.sampledScale = hits.sampledScale();
    f.hitWeights = detached ? Arrays.copyOf(weights, DistanceCounts.used(weights)) : weights;
    f.total = total;
    f.expected = expected;
    f.k = k;
    return f;
  }

  /** Anchors the curve at the agent's exact LRU miss ratio {@code exact} at {@code bytes}; returns this. */
  MissRatioFunction anchoredAt(long bytes, double exact, double floor) {
    this.anchored = true;
    this.anchorBytes = bytes;
    this.anchorMissRatio = exact;
    this.floor = floor;
    return this;
  }

  /**
   * The curve at the given cache sizes: {@code (W - H(c / k)) / expected}, clipped to [0, 1];
   * anchored, shifted up to the anchor and scaled above the floor past it, kept non-increasing
   * ({@link ShardsEstimator}'s class comment).
   *
   * @param cacheBytes cache sizes in bytes, strictly increasing
   * @throws IllegalArgumentException when the sizes do not increase
   */
  public MissRatioCurve at(long[] cacheBytes) {
    MissRatioCurve sampled = curve(cacheBytes);
    if (!anchored) {
      return sampled;
    }
    double estimated = curve(new long[] {anchorBytes}).missRatio(0);
    double exact = anchorMissRatio;
    double scale = estimated > floor ? Math.max(0, (exact - floor) / (estimated - floor)) : 1;
    double[] out = new double[cacheBytes.length];
    for (int i = 0; i < out.length; i++) {
      double m = sampled.missRatio(i);
      double v = cacheBytes[i] <= anchorBytes ? m + exact - estimated : m > floor ? floor + (m - floor) * scale : m;
      out[i] = Math.max(0, Math.min(i == 0 ? 1 : out[i - 1], v));
    }
    return new MissRatioCurve(cacheBytes, out);
  }

  /** The miss ratio of an LRU cache of {@code cacheBytes} bytes, in [0, 1]. */
  public double missRatioAt(long cacheBytes) {
    return at(new long[] {cacheBytes}).missRatio(0);
  }

  /** {@code (W - H(c / k)) / expected} at each size c, clipped to [0, 1]. */
  private MissRatioCurve curve(long[] cacheBytes) {
    double[] limits = new double[cacheBytes.length];
    for (int i = 0; i < limits.length; i++) {
      limits[i] = (double) cacheBytes[i] / ShardsEstimator.BLOCK_BYTES / k;
    }
    double[] hit = sampledScale > 0 ? SampledDistanceCounts.weightBelow(hitWeights, sampledScale, limits)
        : DistanceHistogram.weightBelow(hitWeights, limits);
    double[] miss = new double[limits.length];
    for (int i = 0; i < miss.length; i++) {
      miss[i] = Math.max(0, Math.min(1, (total - hit[i]) / expected));
    }
    return new MissRatioCurve(cacheBytes, miss);
  }
}
