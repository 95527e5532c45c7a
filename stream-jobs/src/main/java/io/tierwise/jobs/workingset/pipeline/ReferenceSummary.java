package io.tierwise.jobs.workingset.pipeline;

import io.tierwise.jobs.workingset.estimate.IoProfile;

/**
 * A batch's sampled references summarised in their place ({@code tierwise.v1.ReferenceSummary},
 * proto/tierwise/v1/reference_batch.proto; a Flink POJO): the agent ran every analysis of them, so
 * the service reads only their count, span and I/O mix (docs/fleet-scale.md "What is left", item
 * 1). Parallel arrays: per (direction, I/O length) pair, whether it is writes, the length in 4 KiB
 * blocks and the references it made.
 */
public class ReferenceSummary {
  /** The sampled references summarised (&ge; 1). */
  public long references;
  /** The time of the first and of the last of them, Unix epoch nanoseconds. */
  public long firstUnixNano;
  public long lastUnixNano;
  /** True where the pair is writes. */
  public boolean[] writes;
  /** The pair's I/O length, 4 KiB blocks (&ge; 1). */
  public int[] lengthBlocks;
  /** The references the pair made (&ge; 1; they add up to {@link #references}). */
  public long[] counts;

  /** For Flink. */
  public ReferenceSummary() {}

  /** Adds the references to {@code io}, sampled at rate {@code rate} (as {@link IoProfile#add} adds one). */
  public void addTo(IoProfile io, double rate) {
    for (int i = 0; i < counts.length; i++) {
      io.addCount(writes[i], lengthBlocks[i], rate, counts[i]);
    }
    io.cover(firstUnixNano, lastUnixNano);
  }
}
