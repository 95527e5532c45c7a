package io.tierwise.jobs.workingset.estimate;

import java.io.IOException;
import java.util.Optional;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * One pane of a sliding window ({@link WindowedEstimators}): the LRU estimate of the references
 * since {@link #startUnixNano}, read off the stream's one sample (its {@link ShardsEstimator}'s LRU
 * stack) instead of a sample of its own.
 *
 * <p>The pane has an <b>epoch</b>, the count of panes the stream had started when it started;
 * the stack marks each block with the epochs of its last read and last write. A re-reference
 * whose previous access is in an epoch at or after the pane's was also a re-reference within the
 * pane, at the same stack distance (every block referenced since is in the pane too); any other
 * sampled reference is the pane's first to that block. Each is counted at the sample's
 * {@code 1 / R_t}, in distance counts of the sample's kind, as the sample counts its own
 * (Waldspurger et al., FAST 2015, sections 3 and 4.2); a block the sample evicts leaves the pane's
 * working sets. Normalised by the pane's own sampled weight (classic SHARDS, section 3.1): the
 * agent's stream totals are since the stream's start. Working sets: the pane's sampled blocks
 * (read, written) over {@code R} now. State: the two distance counts and 11 numbers. Not
 * thread-safe.
 */
final class WindowPane implements MrcEstimate {
  /** Where the pane starts, Unix epoch nanoseconds (a multiple of its window's hop). */
  final long startUnixNano;
  /** Its epoch: a block marked at or after it was referenced in the pane. */
  final int epoch;
  /** The first and last reference seen in the pane, Unix epoch nanoseconds (0: none). */
  long firstUnixNano;
  long lastUnixNano;
  private final ShardsEstimator sample;
  private final DistanceCounts hits;
  private final DistanceCounts readHits;
  private long references;
  private long readReferences;
  private double weight;
  private double readWeight;
  /** Sampled blocks referenced (read, written) in the pane and still in the sample. */
  private long blocks;
  private long readBlocks;
  private long writeBlocks;

  /** An empty pane of {@code sample}'s stream. */
  WindowPane(long startUnixNano, int epoch, ShardsEstimator sample) {
    this(startUnixNano, epoch, sample, sample.newDistanceCounts(), sample.newDistanceCounts());
  }

  private WindowPane(long startUnixNano, int epoch, ShardsEstimator sample, DistanceCounts hits,
      DistanceCounts readHits) {
    this.startUnixNano = startUnixNano;
    this.epoch = epoch;
    this.sample = sample;
    this.hits = hits;
    this.readHits = readHits;
  }

  /** Notes a reference (sampled or not) at {@code timeUnixNano}. */
  void touch(long timeUnixNano) {
    if (firstUnixNano == 0) {
      firstUnixNano = timeUnixNano;
    }
    lastUnixNano = timeUnixNano;
  }

  /** A sampled reference: {@link ShardsEstimator.SampleObserver#sampled}. */
  void sampled(long previous, long marks, double scale, boolean write) {
    references++;
    weight += scale;
    if (!write) {
      readReferences++;
      readWeight += scale;
    }
    if (previous != ReuseDistanceStack.FIRST_REFERENCE && ReuseDistanceStack.accessEpoch(marks) >= epoch) {
      hits.add(previous >>> 2, scale);
      if (!write) {
        readHits.add(previous >>> 2, scale);
      }
    } else {
      blocks++;
    }
    if (write && ReuseDistanceStack.writeEpoch(marks) < epoch) {
      writeBlocks++;
    } else if (!write && ReuseDistanceStack.readEpoch(marks) < epoch) {
      readBlocks++;
    }
  }

  /** A block left the sample: {@link ShardsEstimator.SampleObserver#evicted}. */
  void evicted(long marks) {
    blocks -= ReuseDistanceStack.accessEpoch(marks) >= epoch ? 1 : 0;
    readBlocks -= ReuseDistanceStack.readEpoch(marks) >= epoch ? 1 : 0;
    writeBlocks -= ReuseDistanceStack.writeEpoch(marks) >= epoch ? 1 : 0;
  }

  @Override
  public String method() {
    return sample.method();
  }

  @Override
  public double rate() {
    return sample.rate();
  }

  @Override
  public long references() {
    return references;
  }

  @Override
  public long readReferences() {
    return readReferences;
  }

  @Override
  public long workingSetBytes() {
    return scaled(blocks);
  }

  @Override
  public long readWorkingSetBytes() {
    return scaled(readBlocks);
  }

  @Override
  public long writeWorkingSetBytes() {
    return scaled(writeBlocks);
  }

  private long scaled(long sampledBlocks) {
    return Math.round(sampledBlocks / rate()) * ShardsEstimator.BLOCK_BYTES;
  }

  @Override
  public MissRatioCurve missRatioCurve(long[] cacheBytes) {
    return missRatioFunction(false).at(cacheBytes);
  }

  @Override
  public Optional<MissRatioCurve> readMissRatioCurve(long[] cacheBytes) {
    return readReferences == 0 ? Optional.empty()
        : Optional.of(MissRatioFunction.of(readHits, readWeight, readWeight, 1, false).at(cacheBytes));
  }

  @Override
  public MissRatioFunction missRatioFunction() {
    return missRatioFunction(true);
  }

  @Override
  public Optional<MissRatioFunction> readMissRatioFunction() {
    return readReferences == 0 ? Optional.empty()
        : Optional.of(MissRatioFunction.of(readHits, readWeight, readWeight, 1, true));
  }

  private MissRatioFunction missRatioFunction(boolean detached) {
    if (references == 0) {
      throw new IllegalStateException("no sampled references in the pane yet: the MRC is undefined");
    }
    return MissRatioFunction.of(hits, weight, weight, 1, detached);
  }

  /** Bytes of {@link #writeTo}. */
  long stateBytes() {
    return 8 * 3 + 4 + 8 * 2 + 8 * 2 + 8 * 3 + hits.serializedBytes() + readHits.serializedBytes();
  }

  /** A copy reading {@code copyOfSample} (the copy of this pane's stream's sample). */
  WindowPane copy(ShardsEstimator copyOfSample) {
    WindowPane c = new WindowPane(startUnixNano, epoch, copyOfSample, hits.copy(), readHits.copy());
    c.firstUnixNano = firstUnixNano;
    c.lastUnixNano = lastUnixNano;
    c.references = references;
    c.readReferences = readReferences;
    c.weight = weight;
    c.readWeight = readWeight;
    c.blocks = blocks;
    c.readBlocks = readBlocks;
    c.writeBlocks = writeBlocks;
    return c;
  }

  /** Writes the pane (read back by {@link #readFrom} with its stream's sample). */
  void writeTo(DataOutputView out) throws IOException {
    out.writeLong(startUnixNano);
    out.writeInt(epoch);
    out.writeLong(firstUnixNano);
    out.writeLong(lastUnixNano);
    out.writeLong(references);
    out.writeLong(readReferences);
    out.writeDouble(weight);
    out.writeDouble(readWeight);
    out.writeLong(blocks);
    out.writeLong(readBlocks);
    out.writeLong(writeBlocks);
    hits.writeTo(out);
    readHits.writeTo(out);
  }

  /**
   * Reads a pane written by {@link #writeTo} of the stream whose sample is {@code sample}.
   *
   * @throws IOException on a read error or an inconsistent state
   */
  static WindowPane readFrom(DataInputView in, ShardsEstimator sample) throws IOException {
    long start = in.readLong();
    int epoch = in.readInt();
    long first = in.readLong();
    long last = in.readLong();
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
    WindowPane p = new WindowPane(start, epoch, sample, sample.readDistanceCounts(in), sample.readDistanceCounts(in));
    p.firstUnixNano = first;
    p.lastUnixNano = last;
    p.references = references;
    p.readReferences = readReferences;
    p.weight = weight;
    p.readWeight = readWeight;
    p.blocks = blocks;
    p.readBlocks = readBlocks;
    p.writeBlocks = writeBlocks;
    return p;
  }
}
