package io.tierwise.jobs.workingset.estimate;

import java.util.Optional;

/**
 * What an estimate of one reference stream's LRU miss ratio curve and working sets tells, apart
 * from how it is fed: a {@link MrcEstimator}'s, or a window pane's of a stream's shared sample
 * ({@link WindowedEstimators}). Units: bytes (4 KiB blocks), miss ratios in [0, 1].
 */
public interface MrcEstimate {
  /** {@link MrcEstimator#METHOD_FIXED_RATE} or {@link MrcEstimator#METHOD_FIXED_SIZE}. */
  String method();

  /** The sampling rate the estimate is at now, {@code T / P} (fixed size: lowered as it fills). */
  double rate();

  /** Sampled references processed (fixed size: including those of blocks evicted since). */
  long references();

  /** Sampled references that were reads. */
  long readReferences();

  /** Estimated working set size, bytes. */
  long workingSetBytes();

  /** Estimated read working set size (distinct blocks read at least once), bytes. */
  long readWorkingSetBytes();

  /** Estimated write working set size (distinct blocks written at least once), bytes. */
  long writeWorkingSetBytes();

  /**
   * The estimated MRC at the given cache sizes.
   *
   * @param cacheBytes cache sizes in bytes, strictly increasing
   * @throws IllegalStateException when no reference has been processed
   * @throws IllegalArgumentException when the sizes do not increase
   */
  MissRatioCurve missRatioCurve(long[] cacheBytes);

  /**
   * The estimated LRU miss ratio of the reads alone (a write-through tier serves only reads), or
   * empty before any sampled read.
   */
  Optional<MissRatioCurve> readMissRatioCurve(long[] cacheBytes);

  /**
   * The estimated MRC as a function of the cache size, apart from the estimator: the same miss
   * ratios as {@link #missRatioCurve} now, at any size, however the estimator goes on.
   *
   * @throws IllegalStateException when no reference has been processed
   */
  MissRatioFunction missRatioFunction();

  /** The same of the reads alone ({@link #readMissRatioCurve}), or empty before any sampled read. */
  Optional<MissRatioFunction> readMissRatioFunction();

  /**
   * Estimated LRU miss ratio of a cache of {@code cacheBytes} bytes, in [0, 1].
   *
   * @throws IllegalStateException when no reference has been processed
   */
  default double missRatioAt(long cacheBytes) {
    return missRatioCurve(new long[] {cacheBytes}).missRatio(0);
  }
}
