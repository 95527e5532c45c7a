package io.tierwise.jobs.workingset.estimate;

/**
 * Fixed-rate SHARDS (Waldspurger et al., FAST 2015, section 3): the LRU miss ratio curve and
 * working set sizes of one volume from the references to the blocks with {@code H(L) mod P < T},
 * at the agent's rate {@code R = T / P}; memory grows with the sampled footprint
 * ({@link ShardsFixedSize} bounds it). With the agent's stream totals the estimate scales by the
 * realised sampling fraction {@code R' = b / B} ({@code b} sampled blocks, {@code B} the agent's
 * distinct-block count) instead of {@code R} and normalises by {@code N} (SHARDS_adj, section
 * 3.2): see {@link ShardsEstimator}. Measured at R = 0.01 on the CloudPhysics trace, 2,000 random
 * hash keys: mean absolute error above 0.03 for 12 % of keys with the classic estimate, 14 % with
 * SHARDS_adj at the nominal R, 0.35 % with {@code R'} (ShardsAccuracyTest, docs/analytics.md).
 * Not thread-safe.
 */
public final class ShardsFixedRate extends ShardsEstimator {
  /**
   * An empty estimator for sampling parameters {@code P} (modulus) and {@code T} (threshold),
   * both unsigned 64-bit as in {@code tierwise.v1.ReferenceBatch}.
   *
   * @throws IllegalArgumentException when {@code P = 0}, {@code T = 0} or {@code T > P}
   */
  public ShardsFixedRate(long modulus, long threshold) {
    this(modulus, threshold, new ReuseDistanceStack(), new SampledDistanceCounts(1 / samplingRate(modulus, threshold)),
        new SampledDistanceCounts(1 / samplingRate(modulus, threshold)), new StreamTotals());
  }

  ShardsFixedRate(long modulus, long threshold, ReuseDistanceStack stack, DistanceCounts hits,
      DistanceCounts readHits, StreamTotals totals) {
    super(modulus, threshold, UNBOUNDED, threshold, stack, hits, readHits, totals);
  }

  @Override
  public String method() {
    return METHOD_FIXED_RATE;
  }

  @Override
  public ShardsFixedRate copy() {
    return (ShardsFixedRate) super.copy();
  }
}
