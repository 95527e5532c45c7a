package io.tierwise.jobs.workingset.estimate;

import java.io.IOException;
import org.apache.flink.core.memory.DataOutputView;

/**
 * A SHARDS estimator of one reference stream's LRU miss ratio curve and working set sizes, fed
 * the sampled 4 KiB block references in time order and the agent's stream totals. Two
 * implementations: {@link ShardsFixedRate} (memory grows with the distinct sampled blocks) and
 * {@link ShardsFixedSize} (bounded memory); what it estimates is read through {@link MrcEstimate}.
 * Serialised for Flink state by {@link MrcEstimators#write} (inside {@link
 * WindowedEstimatorsSerializer}). Not thread-safe.
 */
public interface MrcEstimator extends MrcEstimate {
  /** volume_mrcs.method of fixed-rate SHARDS. */
  String METHOD_FIXED_RATE = "shards-fixed-rate";
  /** volume_mrcs.method of fixed-size SHARDS. */
  String METHOD_FIXED_SIZE = "shards-fixed-size";

  /** The agent's hash modulus {@code P} (unsigned). */
  long modulus();

  /** The agent's threshold {@code T} the estimator was started with (unsigned). */
  long threshold();

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

  /** Bytes of the serialised state ({@link #writeTo}), the checkpoint cost of this estimator. */
  long stateBytes();

  /** An independent deep copy. */
  MrcEstimator copy();

  /** Writes the state (read back by {@link MrcEstimators#read}). */
  void writeTo(DataOutputView out) throws IOException;
}
