package io.tierwise.jobs.workingset.estimate;

import java.io.IOException;
import java.util.List;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * One pane of a sliding window ({@link WindowedEstimators}), kept as its <b>share</b>: the pane's
 * LRU estimate of the references since {@link #startUnixNano} is the sum of its share and the
 * shares of every newer pane of its window ({@link #estimate}), read off the stream's one sample
 * (its {@link ShardsEstimator}'s LRU stack) instead of a sample of its own.
 *
 * <p>The pane has an <b>epoch</b>, the count of panes the stream had started when it started;
 * the stack marks each block with the epochs of its last read and last write. A re-reference
 * whose previous access is in an epoch at or after the pane's was also a re-reference within the
 * pane, at the same stack distance (every block referenced since is in the pane too); any other
 * sampled reference is the pane's first to that block. So what a sampled reference tells a
 * window's panes, each a run of them, oldest first: it is counted by every live pane; it is a
 * re-reference of the panes started at or before its previous access, and the block was already
 * read (written) in the panes started at or before its previous read (write). A share holds what
 * is told to the run that ends at its pane: the references made while its pane was the newest,
 * and the re-references and repeat reads and writes whose previous access lies in its pane. A
 * reference then updates one share per window, not every pane, and shares add up. A block the
 * sample evicts leaves the working sets of the panes its last access, read and write lie in, told
 * the same way.
 *
 * <p>Each reference is counted at the sample's {@code 1 / R_t}, in distance counts of the
 * sample's kind, as the sample counts its own (Waldspurger et al., FAST 2015, sections 3 and 4.2);
 * a pane's estimate is normalised by its own sampled weight (classic SHARDS, section 3.1): the
 * agent's stream totals are since the stream's start. Working sets: the pane's sampled blocks
 * (read, written) over {@code R} now. State: two distance counts and 10 numbers. Not thread-safe.
 */
final class WindowPane {
  /** Where the pane starts, Unix epoch nanoseconds (a multiple of its window's hop). */
  final long startUnixNano;
  /** Its epoch: a block marked at or after it was referenced in the pane. */
  final int epoch;
  /** The first reference seen in the pane (sampled or not), Unix epoch nanoseconds. */
  final long firstUnixNano;
  /** Re-references whose previous access lies in this pane (by scaled distance). */
  private final DistanceCounts hits;
  private final DistanceCounts readHits;
  /** Sampled references made while this pane was its window's newest. */
  private long references;
  private long readReferences;
  private double weight;
  private double readWeight;
  /**
   * Sampled references that were not the first to their block (read, written) in the panes up to
   * this one, as the block's previous access (read, write) lies in this pane, and blocks evicted
   * from the sample whose last access (read, write) lies here: a pane's sampled blocks are its
   * references less these.
   */
  private long blockRepeats;
  private long readRepeats;
  private long writeRepeats;

  /**
   * An empty pane of {@code sample}'s stream, started by a reference at {@code firstUnixNano}; its
   * epoch is unused (0) when the panes are the agent's ({@link WindowedEstimators#addShares}).
   */
  WindowPane(long startUnixNano, int epoch, long firstUnixNano, ShardsEstimator sample) {
    this(startUnixNano, epoch, firstUnixNano, sample.newDistanceCounts(), sample.newDistanceCounts());
  }

  private WindowPane(long startUnixNano, int epoch, long firstUnixNano, DistanceCounts hits,
      DistanceCounts readHits) {
    this.startUnixNano = startUnixNano;
    this.epoch = epoch;
    this.firstUnixNano = firstUnixNano;
    this.hits = hits;
    this.readHits = readHits;
  }

  /**
   * A sampled reference to the panes of {@code window} (oldest first, at least one): {@link
   * ShardsEstimator.SampleObserver#sampled}.
   */
  static void sampled(List<WindowPane> window, long previous, long marks, double scale, boolean write) {
    WindowPane newest = window.get(window.size() - 1);
    newest.references++;
    newest.weight += scale;
    if (!write) {
      newest.readReferences++;
      newest.readWeight += scale;
    }
    WindowPane p;
    if (previous != ReuseDistanceStack.FIRST_REFERENCE
        && (p = startedBy(window, ReuseDistanceStack.accessEpoch(marks))) != null) {
      p.hits.add(previous >>> 2, scale);
      if (!write) {
        p.readHits.add(previous >>> 2, scale);
      }
      p.blockRepeats++;
    }
    if ((p = startedBy(window, write ? ReuseDistanceStack.writeEpoch(marks) : ReuseDistanceStack.readEpoch(marks)))
        != null) {
      if (write) {
        p.writeRepeats++;
      } else {
        p.readRepeats++;
      }
    }
  }

  /** A block the sample evicted, to the panes of {@code window}: {@link ShardsEstimator.SampleObserver#evicted}. */
  static void evicted(List<WindowPane> window, long marks) {
    WindowPane p;
    if ((p = startedBy(window, ReuseDistanceStack.accessEpoch(marks))) != null) {
      p.blockRepeats++;
    }
    if ((p = startedBy(window, ReuseDistanceStack.readEpoch(marks))) != null) {
      p.readRepeats++;
    }
    if ((p = startedBy(window, ReuseDistanceStack.writeEpoch(marks))) != null) {
      p.writeRepeats++;
    }
  }

  /**
   * Adds share {@code i} of {@code shares} (the agent's count of this pane's share in one batch,
   * {@link WindowShares}).
   *
   * @throws IllegalStateException when the pane's counts are not a {@link DistanceHistogram} (a
   *     fixed-rate sample's)
   */
  void addShare(WindowShares shares, int i) {
    if (!(hits instanceof DistanceHistogram all) || !(readHits instanceof DistanceHistogram reads)) {
      throw new IllegalStateException("only a fixed-size sample's panes take shares");
    }
    for (int h = shares.hitStart[i]; h < shares.hitStart[i + 1]; h++) {
      all.addToBucket(shares.hitBuckets[h], shares.hitWeights[h]);
    }
    for (int h = shares.readHitStart[i]; h < shares.readHitStart[i + 1]; h++) {
      reads.addToBucket(shares.readHitBuckets[h], shares.readHitWeights[h]);
    }
    references += shares.references[i];
    readReferences += shares.readReferences[i];
    weight += shares.weight[i];
    readWeight += shares.readWeight[i];
    blockRepeats += shares.blockRepeats[i];
    readRepeats += shares.readRepeats[i];
    writeRepeats += shares.writeRepeats[i];
  }

  /**
   * The newest pane of {@code window} started at or before {@code epoch}, the epoch of a block's
   * previous access, read or write ({@link ReuseDistanceStack#NO_EPOCH}: none): the pane it lies
   * in; null when it is older than every live pane.
   */
  private static WindowPane startedBy(List<WindowPane> window, int epoch) {
    for (int i = window.size() - 1; i >= 0; i--) {
      WindowPane p = window.get(i);
      if (p.epoch <= epoch) {
        return p;
      }
    }
    return null;
  }

  /**
   * The estimate of the pane {@code window.get(from)}: the sum of its share and the newer panes'
   * (a snapshot: it does not follow later references), read with {@code sample}'s rate now.
   */
  static MrcEstimate estimate(List<WindowPane> window, int from, ShardsEstimator sample) {
    DistanceCounts hits = sample.newDistanceCounts();
    DistanceCounts readHits = sample.newDistanceCounts();
    long references = 0;
    long readReferences = 0;
    double weight = 0;
    double readWeight = 0;
    long blockRepeats = 0;
    long readRepeats = 0;
    long writeRepeats = 0;
    for (int i = from; i < window.size(); i++) {
      WindowPane p = window.get(i);
      hits.addAll(p.hits, 1);
      readHits.addAll(p.readHits, 1);
      references += p.references;
      readReferences += p.readReferences;
      weight += p.weight;
      readWeight += p.readWeight;
      blockRepeats += p.blockRepeats;
      readRepeats += p.readRepeats;
      writeRepeats += p.writeRepeats;
    }
    return new PaneEstimate(sample.method(), sample.rate(), references, readReferences, weight, readWeight, hits,
        readHits, references - blockRepeats, readReferences - readRepeats,
        references - readReferences - writeRepeats);
  }

  /** Bytes of {@link #writeTo}. */
  long stateBytes() {
    return 8 + 4 + 8 + 8 * 2 + 8 * 2 + 8 * 3 + hits.serializedBytes() + readHits.serializedBytes();
  }

  /** A copy with the same share. */
  WindowPane copy() {
    WindowPane c = new WindowPane(startUnixNano, epoch, firstUnixNano, hits.copy(), readHits.copy());
    c.references = references;
    c.readReferences = readReferences;
    c.weight = weight;
    c.readWeight = readWeight;
    c.blockRepeats = blockRepeats;
    c.readRepeats = readRepeats;
    c.writeRepeats = writeRepeats;
    return c;
  }

  /** Writes the share (read back by {@link #readFrom} with its stream's sample). */
  void writeTo(DataOutputView out) throws IOException {
    out.writeLong(startUnixNano);
    out.writeInt(epoch);
    out.writeLong(firstUnixNano);
    out.writeLong(references);
    out.writeLong(readReferences);
    out.writeDouble(weight);
    out.writeDouble(readWeight);
    out.writeLong(blockRepeats);
    out.writeLong(readRepeats);
    out.writeLong(writeRepeats);
    hits.writeTo(out);
    readHits.writeTo(out);
  }

  /**
   * Reads a share written by {@link #writeTo} of the stream whose sample is {@code sample}.
   *
   * @throws IOException on a read error or an inconsistent state
   */
  static WindowPane readFrom(DataInputView in, ShardsEstimator sample) throws IOException {
    long start = in.readLong();
    int epoch = in.readInt();
    long first = in.readLong();
    long references = in.readLong();
    long readReferences = in.readLong();
    double weight = in.readDouble();
    double readWeight = in.readDouble();
    long blockRepeats = in.readLong();
    long readRepeats = in.readLong();
    long writeRepeats = in.readLong();
    if (epoch < 0 || readReferences > references || readReferences < 0 || blockRepeats < 0 || readRepeats < 0
        || writeRepeats < 0) {
      throw new IOException("inconsistent window pane state: epoch " + epoch + ", references " + references
          + " (" + readReferences + " reads), again " + blockRepeats + " (" + readRepeats + " read, "
          + writeRepeats + " written)");
    }
    WindowPane p = new WindowPane(start, epoch, first, sample.readDistanceCounts(in), sample.readDistanceCounts(in));
    p.references = references;
    p.readReferences = readReferences;
    p.weight = weight;
    p.readWeight = readWeight;
    p.blockRepeats = blockRepeats;
    p.readRepeats = readRepeats;
    p.writeRepeats = writeRepeats;
    return p;
  }

  /**
   * Reads the panes of one window as state format 3 or 4 wrote them (each pane whole: its counts
   * since its start, and its blocks), as shares: a pane's share is the pane less the next newer one.
   *
   * @throws IOException on a read error or an inconsistent state
   */
  static void readWholePanes(DataInputView in, int count, ShardsEstimator sample, List<WindowPane> window)
      throws IOException {
    for (int i = 0; i < count; i++) {
      long start = in.readLong();
      int epoch = in.readInt();
      long first = in.readLong();
      in.readLong();
      long references = in.readLong();
      long readReferences = in.readLong();
      double weight = in.readDouble();
      double readWeight = in.readDouble();
      long blocks = in.readLong();
      long readBlocks = in.readLong();
      long writeBlocks = in.readLong();
      if (epoch < 0 || readReferences > references || blocks < 0 || readBlocks > blocks || writeBlocks > blocks) {
        throw new IOException("inconsistent window pane state: epoch " + epoch + ", references " + references
            + " (" + readReferences + " reads), blocks " + blocks + " (" + readBlocks + " read, " + writeBlocks
            + " written)");
      }
      WindowPane p = new WindowPane(start, epoch, first, sample.readDistanceCounts(in), sample.readDistanceCounts(in));
      p.references = references;
      p.readReferences = readReferences;
      p.weight = weight;
      p.readWeight = readWeight;
      // Whole, a pane's counts "again" are its references less its blocks.
      p.blockRepeats = references - blocks;
      p.readRepeats = readReferences - readBlocks;
      p.writeRepeats = references - readReferences - writeBlocks;
      window.add(p);
    }
    for (int i = 0; i + 1 < count; i++) {
      WindowPane p = window.get(i);
      WindowPane next = window.get(i + 1);
      p.hits.addAll(next.hits, -1);
      p.readHits.addAll(next.readHits, -1);
      p.references -= next.references;
      p.readReferences -= next.readReferences;
      p.weight -= next.weight;
      p.readWeight -= next.readWeight;
      p.blockRepeats -= next.blockRepeats;
      p.readRepeats -= next.readRepeats;
      p.writeRepeats -= next.writeRepeats;
    }
  }
}
