package io.tierwise.jobs.workingset.estimate;

import java.io.IOException;
import java.util.Optional;
import org.apache.flink.core.memory.DataOutputView;

/**
 * A SHARDS estimator of one reference stream's LRU miss ratio curve and working set sizes, fed
 * the sampled 4 KiB block references in time order and the agent's stream totals. Two
 * implementations: {@link ShardsFixedRate} (memory grows with the distinct sampled blocks) and
 * {@link ShardsFixedSize} (bounded memory). Serialised for Flink state by {@link MrcEstimators#write}
 * (inside {@link WindowedEstimatorsSerializer}). Not thread-safe.
 */
public interface MrcEstimator {
  /** volume_mrcs.method of fixed-rate SHARDS. */
  String METHOD_FIXED_RATE = "shards-fixed-rate";
  /** volume_mrcs.method of fixed-size SHARDS. */
  String METHOD_FIXED_SIZE = "shards-fixed-size";

  /** {@link #METHOD_FIXED_RATE} or {@link #METHOD_FIXED_SIZE}. */
  String method();

  /** The agent's hash modulus {@code P} (unsigned). */
  long modulus();

  /** The agent's threshold {@code T} the estimator was started with (unsigned). */
  long threshold();

  /** The sampling rate the estimate is at now, {@code T / P} (fixed size: lowered as it fills). */
  double rate();

  /**
   * Processes one sampled reference, in time order.
   *
   * @param blockHash {@code H(L)} of the 4 KiB block referenced
   * @param write true for a write, false for a read
   */
  void reference(long blockHash, boolean write);

  /**
   * Adds one batch's stream totals ({@code tierwise.v1.ReferenceBatch} fields 9 to 11); a batch
   * without them ({@code hllPrecision = 0}) switches to the nominal-rate estimate for good.
   *
   * @throws IllegalArgumentException when p changes or an update is invalid
   */
  default void addStreamTotals(long consideredReferences, int hllPrecision, int[] hllUpdates) {
    addStreamTotals(0, consideredReferences, hllPrecision, hllUpdates);
  }

  /**
   * Adds one batch's stream totals to part {@code part} of a merged stream: a cluster's volume
   * (their blocks are disjoint, so the distinct-block counts add up).
   *
   * @throws IllegalArgumentException when p changes or an update is invalid
   */
  void addStreamTotals(int part, long consideredReferences, int hllPrecision, int[] hllUpdates);

  /**
   * Adds one batch's LRU anchor ({@code tierwise.v1.ReferenceBatch} fields 13 and 14): the hits of
   * the agent's exact LRU cache of {@code blocks} 4 KiB blocks among the batch's considered
   * references. Only a volume's own stream has one (the LRU of a merged stream is not made of its
   * volumes'); a batch without it ({@code blocks = 0}) or of another size drops the anchor for good.
   */
  void addLruAnchor(long hits, int blocks);

  /** p of the distinct-block sketch, 0 before any batch brought one. */
  int sketchPrecision();

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

  /** Bytes of the serialised state ({@link #writeTo}), the checkpoint cost of this estimator. */
  long stateBytes();

  /** An independent deep copy. */
  MrcEstimator copy();

  /** Writes the state (read back by {@link MrcEstimators#read}). */
  void writeTo(DataOutputView out) throws IOException;
}
