package io.tierwise.jobs.workingset.estimate;

import io.tierwise.jobs.workingset.estimate.eviction.EvictionPolicy;

/**
 * The agent's miniature simulations of one reference batch (a Flink POJO): per cache size the
 * engine's own policies simulated over the batch's references in that size's sample
 * ({@code tierwise.v1.MiniatureSimulation}, proto/tierwise/v1/reference_batch.proto). Rows are
 * sizes, ascending; the policy columns are in {@link EvictionPolicy} order. Each reference of size
 * {@code i} stands for {@code P / thresholds[i]} references (SHARDS' rescaling).
 */
public class MiniatureBatch {
  /** Cache sizes, bytes, strictly increasing, multiples of 4 KiB. */
  public long[] cacheBytes = new long[0];
  /** Each size's {@code T_C} (unsigned, &le; the batch's T). */
  public long[] thresholds = new long[0];
  /** Each size's references in its sample (&ge; 1), and the reads among them. */
  public long[] references = new long[0];
  public long[] readReferences = new long[0];
  /** Per size, each policy's misses among its references, and among its reads. */
  public long[][] misses = new long[0][];
  public long[][] readMisses = new long[0][];

  /** For Flink. */
  public MiniatureBatch() {}

  /** Number of sizes. */
  public int size() {
    return cacheBytes.length;
  }
}
