package io.tierwise.jobs.workingset.pipeline;

/** Per-volume bookkeeping of {@link WorkingSetFunction} (a Flink POJO). */
public class VolumeStream {
  /** Tenant (UUID text). */
  public String tenantId;
  /** Volume id. */
  public String volumeId;
  /** The batch sequence number to process next. */
  public long nextSequence;
  /** Batches held back waiting for a missing sequence number. */
  public int pendingBatches;
  /** Time of the earliest reference processed, Unix ns (0: none yet). */
  public long windowStartUnixNano;
  /** Time of the latest reference processed, Unix ns (0: none yet). */
  public long windowEndUnixNano;
  /**
   * Something the results are made of changed since the last flush: references were processed,
   * or a metrics interval's measured latency came.
   */
  public boolean processedSinceFlush;
  /** Results are due but wait for their coarse write ({@code CoarseWrites}). */
  public boolean resultsWaiting;
  /** Processing time of the pending flush timer, ms (0: none). */
  public long flushAtMillis;
  /** Processing time when a sequence gap is given up on, ms (0: no gap). */
  public long gapDeadlineMillis;
  /** For Flink. */
  public VolumeStream() {}
}
