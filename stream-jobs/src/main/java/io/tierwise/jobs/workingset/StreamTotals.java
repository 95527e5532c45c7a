package io.tierwise.jobs.workingset;

import java.io.IOException;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The agent's stream totals summed over a volume's batches ({@code tierwise.v1.ReferenceBatch}
 * fields 9 to 11): N, the count of all block references considered (sampled or not), and the
 * HyperLogLog sketch of the distinct blocks considered ({@link DistinctBlockSketch}, estimate B).
 * One batch without them ({@code hllPrecision = 0}: an older agent) marks the totals incomplete
 * for good, and the estimators fall back to the nominal sampling rate. Not thread-safe.
 */
final class StreamTotals {
  private long consideredReferences;
  private DistinctBlockSketch distinctBlocks;
  private boolean incomplete;

  /**
   * Adds one batch's totals.
   *
   * @param consideredReferences N of the batch: all block references of its span, &ge; 0
   * @param hllPrecision p of the distinct-block sketch, 0 when the batch has no totals
   * @param hllUpdates register updates {@code (index << 8) | value}
   * @throws IllegalArgumentException when p differs from earlier batches' or an update is invalid
   *     ({@link DistinctBlockSketch#checkUpdate})
   */
  void add(long consideredReferences, int hllPrecision, int[] hllUpdates) {
    if (hllPrecision == 0) {
      incomplete = true;
      return;
    }
    if (distinctBlocks == null) {
      distinctBlocks = new DistinctBlockSketch(hllPrecision);
    } else if (distinctBlocks.precision() != hllPrecision) {
      throw new IllegalArgumentException("HyperLogLog precision changed from " + distinctBlocks.precision()
          + " to " + hllPrecision);
    }
    for (int update : hllUpdates) {
      distinctBlocks.merge(update);
    }
    this.consideredReferences += consideredReferences;
  }

  /** p of the sketch, 0 before any batch brought one. */
  int sketchPrecision() {
    return distinctBlocks == null ? 0 : distinctBlocks.precision();
  }

  /** True when every batch brought the totals (and at least one did). */
  boolean complete() {
    return !incomplete && distinctBlocks != null && consideredReferences > 0;
  }

  /** N summed over the batches with totals. */
  long consideredReferences() {
    return consideredReferences;
  }

  /** B: the sketch's distinct-block estimate (0 without a sketch). */
  double distinctBlocks() {
    return distinctBlocks == null ? 0 : distinctBlocks.estimate();
  }

  StreamTotals copy() {
    StreamTotals c = new StreamTotals();
    c.consideredReferences = consideredReferences;
    c.distinctBlocks = distinctBlocks == null ? null : distinctBlocks.copy();
    c.incomplete = incomplete;
    return c;
  }

  /** Bytes of {@link #writeTo}. */
  long serializedBytes() {
    return 10 + (distinctBlocks == null ? 0 : distinctBlocks.serializedBytes());
  }

  void writeTo(DataOutputView out) throws IOException {
    out.writeLong(consideredReferences);
    out.writeBoolean(incomplete);
    out.writeBoolean(distinctBlocks != null);
    if (distinctBlocks != null) {
      distinctBlocks.writeTo(out);
    }
  }

  static StreamTotals readFrom(DataInputView in) throws IOException {
    StreamTotals t = new StreamTotals();
    t.consideredReferences = in.readLong();
    t.incomplete = in.readBoolean();
    t.distinctBlocks = in.readBoolean() ? DistinctBlockSketch.readFrom(in) : null;
    return t;
  }
}
