package io.tierwise.jobs.workingset.estimate;

/**
 * Fixed-size SHARDS (Waldspurger et al., FAST 2015, section 4): the LRU miss ratio curve and
 * working set sizes of one reference stream from at most {@code sMax} sampled blocks, whatever
 * the stream's footprint. The threshold starts at the agent's {@code T} (the agent samples at a
 * fixed rate or bounds its own, larger sample; this estimator can only lower it) and falls as the
 * sample fills; see {@link ShardsEstimator} for the sampling, counting, SHARDS_adj and the
 * calibration. State: about 300 KiB in memory and 140 KiB serialised for {@code sMax} = 8,192.
 * Not thread-safe.
 */
public final class ShardsFixedSize extends ShardsEstimator {
  /** The sample size the job uses: 8,192 blocks (SHARDS section 5.2: s_max = 8K, MAE about 0.003). */
  public static final int DEFAULT_MAX_SAMPLES = 8192;

  /**
   * An empty estimator.
   *
   * @param modulus the agent's {@code P} (unsigned)
   * @param threshold the agent's {@code T} (unsigned), where the threshold starts
   * @param maxSamples {@code sMax}, the most sampled blocks held, &ge; 1
   * @throws IllegalArgumentException when {@code P = 0}, {@code T = 0}, {@code T > P} or
   *     {@code maxSamples < 1}
   */
  public ShardsFixedSize(long modulus, long threshold, int maxSamples) {
    this(modulus, threshold, Math.min(maxSamples, UNBOUNDED - 1), threshold, new ReuseDistanceStack(),
        new DistanceHistogram(), new DistanceHistogram(), new StreamTotals());
  }

  ShardsFixedSize(long modulus, long initialThreshold, int maxSamples, long threshold, ReuseDistanceStack stack,
      DistanceCounts hits, DistanceCounts readHits, StreamTotals totals) {
    super(modulus, initialThreshold, maxSamples, threshold, stack, hits, readHits, totals);
  }

  @Override
  public String method() {
    return METHOD_FIXED_SIZE;
  }

  /** {@code sMax}. */
  @Override
  public int maxSamples() {
    return super.maxSamples();
  }

  @Override
  public ShardsFixedSize copy() {
    return (ShardsFixedSize) super.copy();
  }
}
