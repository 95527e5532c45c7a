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
  /** References were processed since the last emission. */
  public boolean processedSinceFlush;
  /** A metrics interval's measured latency came since the last flush. */
  public boolean latencySinceFlush;
  /** Results are due but wait for their coarse write ({@code CoarseWrites}). */
  public boolean resultsWaiting;
  /** The recommendation window's estimate alone is due (its latency changed), and waits likewise. */
  public boolean estimateWaiting;
  /** Processing time of the pending flush timer, ms (0: none). */
  public long flushAtMillis;
  /** Processing time when a sequence gap is given up on, ms (0: no gap). */
  public long gapDeadlineMillis;
  /** For Flink. */
  public VolumeStream() {}
}
