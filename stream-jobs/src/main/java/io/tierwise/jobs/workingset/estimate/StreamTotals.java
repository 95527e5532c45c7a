package io.tierwise.jobs.workingset.estimate;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The agents' stream totals summed over a stream's batches ({@code tierwise.v1.ReferenceBatch}
 * fields 9 to 11, 13 and 14): N, the count of all block references considered (sampled or not),
 * the HyperLogLog sketch of the distinct blocks considered ({@link DistinctBlockSketch}, estimate
 * B), and the hits of the agent's exact LRU anchor (a volume's own stream only).
 * A volume's stream has one part; a cluster's merged stream one part per volume, whose blocks are
 * disjoint, so B is the sum of the parts' estimates (a union of the sketches would merge the same
 * block number of two volumes). One batch without totals ({@code hllPrecision = 0}: an older
 * agent) marks the totals incomplete for good, and the estimators fall back to the nominal
 * sampling rate. Not thread-safe.
 */
public final class StreamTotals {
  private long consideredReferences;
  /** One sketch per part (null until the part's first batch with totals). */
  private final List<DistinctBlockSketch> parts;
  private boolean incomplete;
  /** Sum of the batches' LRU anchor hits, and the anchor's size in blocks (0: none yet). */
  private long lruAnchorHits;
  private int lruAnchorBlocks;
  /** True once a batch came without the anchor, or with another size. */
  private boolean lruAnchorDropped;

  StreamTotals() {
    this(new ArrayList<>());
  }

  private StreamTotals(List<DistinctBlockSketch> parts) {
    this.parts = parts;
  }

  /**
   * Adds one batch's totals to part {@code part} (a volume of a cluster; 0 for a volume's stream).
   *
   * @param consideredReferences N of the batch: all block references of its span, &ge; 0
   * @param hllPrecision p of the distinct-block sketch, 0 when the batch has no totals
   * @param hllUpdates register updates {@code (index << 8) | value}
   * @param part the part, &ge; 0
   * @throws IllegalArgumentException when p differs from earlier batches' or an update is invalid
   *     ({@link DistinctBlockSketch#checkUpdate})
   */
  void add(int part, long consideredReferences, int hllPrecision, int[] hllUpdates) {
    if (hllPrecision == 0) {
      incomplete = true;
      return;
    }
    int precision = sketchPrecision();
    if (precision != 0 && precision != hllPrecision) {
      throw new IllegalArgumentException("HyperLogLog precision changed from " + precision + " to " + hllPrecision);
    }
    while (parts.size() <= part) {
      parts.add(null);
    }
    DistinctBlockSketch sketch = parts.get(part);
    if (sketch == null) {
      sketch = new DistinctBlockSketch(hllPrecision);
      parts.set(part, sketch);
    }
    for (int update : hllUpdates) {
      sketch.merge(update);
    }
    this.consideredReferences += consideredReferences;
  }

  /**
   * Adds one batch's LRU anchor: {@code hits} of an exact LRU cache of {@code blocks} 4 KiB blocks
   * among its considered references; {@code blocks = 0} (no anchor) or a change of size drops the
   * anchor for good.
   */
  void addLruAnchor(long hits, int blocks) {
    if (blocks == 0 || (lruAnchorBlocks != 0 && blocks != lruAnchorBlocks)) {
      lruAnchorDropped = true;
      return;
    }
    lruAnchorBlocks = blocks;
    lruAnchorHits += hits;
  }

  /** True when every batch brought the same LRU anchor (and at least one did). */
  boolean hasLruAnchor() {
    return !lruAnchorDropped && lruAnchorBlocks > 0;
  }

  /** The anchor's hits summed over the batches: with N, the exact miss ratio at its size is {@code 1 - hits / N}. */
  long lruAnchorHits() {
    return lruAnchorHits;
  }

  /** The anchor's size, 4 KiB blocks (0 before any batch brought one). */
  int lruAnchorBlocks() {
    return lruAnchorBlocks;
  }

  /** p of the sketches, 0 before any batch brought one. */
  int sketchPrecision() {
    for (DistinctBlockSketch sketch : parts) {
      if (sketch != null) {
        return sketch.precision();
      }
    }
    return 0;
  }

  /** True when every batch brought the totals (and at least one did). */
  boolean complete() {
    return !incomplete && sketchPrecision() != 0 && consideredReferences > 0;
  }

  /** N summed over the batches with totals. */
  long consideredReferences() {
    return consideredReferences;
  }

  /** B: the sum of the parts' distinct-block estimates (0 without a sketch). */
  double distinctBlocks() {
    double sum = 0;
    for (DistinctBlockSketch sketch : parts) {
      sum += sketch == null ? 0 : sketch.estimate();
    }
    return sum;
  }

  StreamTotals copy() {
    List<DistinctBlockSketch> copies = new ArrayList<>(parts.size());
    for (DistinctBlockSketch sketch : parts) {
      copies.add(sketch == null ? null : sketch.copy());
    }
    StreamTotals c = new StreamTotals(copies);
    c.consideredReferences = consideredReferences;
    c.incomplete = incomplete;
    c.lruAnchorHits = lruAnchorHits;
    c.lruAnchorBlocks = lruAnchorBlocks;
    c.lruAnchorDropped = lruAnchorDropped;
    return c;
  }

  /** Bytes of {@link #writeTo}. */
  long serializedBytes() {
    long bytes = 8 + 1 + 8 + 4 + 1 + 4;
    for (DistinctBlockSketch sketch : parts) {
      bytes += 1 + (sketch == null ? 0 : sketch.serializedBytes());
    }
    return bytes;
  }

  void writeTo(DataOutputView out) throws IOException {
    out.writeLong(consideredReferences);
    out.writeBoolean(incomplete);
    out.writeLong(lruAnchorHits);
    out.writeInt(lruAnchorBlocks);
    out.writeBoolean(lruAnchorDropped);
    out.writeInt(parts.size());
    for (DistinctBlockSketch sketch : parts) {
      out.writeBoolean(sketch != null);
      if (sketch != null) {
        sketch.writeTo(out);
      }
    }
  }

  /** @throws IOException on a read error or an inconsistent state */
  static StreamTotals readFrom(DataInputView in) throws IOException {
    long considered = in.readLong();
    boolean incomplete = in.readBoolean();
    long anchorHits = in.readLong();
    int anchorBlocks = in.readInt();
    boolean anchorDropped = in.readBoolean();
    if (anchorBlocks < 0 || anchorHits < 0) {
      throw new IOException("inconsistent stream totals: LRU anchor of " + anchorBlocks + " blocks, " + anchorHits + " hits");
    }
    int count = in.readInt();
    if (count < 0) {
      throw new IOException("inconsistent stream totals: " + count + " parts");
    }
    List<DistinctBlockSketch> parts = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      parts.add(in.readBoolean() ? DistinctBlockSketch.readFrom(in) : null);
    }
    StreamTotals t = new StreamTotals(parts);
    t.consideredReferences = considered;
    t.incomplete = incomplete;
    t.lruAnchorHits = anchorHits;
    t.lruAnchorBlocks = anchorBlocks;
    t.lruAnchorDropped = anchorDropped;
    return t;
  }
}
