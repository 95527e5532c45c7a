package io.tierwise.jobs.workingset.estimate;

import it.unimi.dsi.fastutil.longs.LongHeapPriorityQueue;
import java.io.IOException;
import java.util.Optional;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * SHARDS (C. A. Waldspurger, N. Park, A. Garthwaite and I. Ahmad, "Efficient MRC Construction with
 * SHARDS", USENIX FAST 2015): the LRU miss ratio curve and working set sizes of one reference
 * stream from the references to a hash-sampled subset of its 4 KiB blocks. The counting, the
 * distance histogram, the curve, the working sets and the state are shared by both variants:
 * {@link ShardsFixedRate} (section 3: the agent's threshold, memory grows with the sampled
 * footprint) and {@link ShardsFixedSize} (section 4: at most {@code sMax} sampled blocks).
 *
 * <p><b>Sampling.</b> Block {@code L} is in the sample while {@code T_i = H(L) mod P < T}, so the
 * sampled blocks are a uniform random subset of the blocks at rate {@code R = T / P}. Bounded:
 * when a new block would make the sample hold more than {@code sMax} blocks, the blocks with the
 * largest {@code T_i} are evicted (a max-heap on {@code T_i}) and {@code T} becomes that
 * {@code T_i} (section 4.2), so the sample stays a uniform subset of about {@code sMax} blocks
 * and {@code R} falls as the footprint grows.
 *
 * <p><b>Counting.</b> Each sampled reference is counted at the rate {@code R_t} in force when it
 * came: its stack distance among the sampled blocks ({@link ReuseDistanceStack}; Mattson et al.,
 * 1970) scaled by {@code 1 / R_t} (the MRC's x axis, section 3.1) goes into a
 * {@link DistanceHistogram} with weight {@code 1 / R_t} (at a fixed rate: exact counts per sampled distance,
 * {@link SampledDistanceCounts}). That equals the paper's rescaling of the
 * histogram by {@code R_new / R_old} at each lowering (section 4.2), expressed at rate 1; at a
 * fixed rate every weight is {@code 1 / R}.
 *
 * <p><b>Curve.</b> With the agent's stream totals ({@link StreamTotals}: {@code N} all block
 * references, {@code B} the distinct-block count of its HyperLogLog sketch), the miss ratio at
 * {@code c} blocks is {@code k (W - H(c / k)) / N}: {@code W} the total weight, {@code H(x)} the
 * weight of distances below {@code x}. {@code / N} is SHARDS_adj (section 3.2: add
 * {@code N - W} to the first bucket, i.e. count the difference as hits). {@code k = B / C}, the
 * agent's distinct-block count over the sample's own estimate of it ({@code C}, the weight of
 * first references), is the ratio estimator of survey sampling with the block count as auxiliary
 * variable (Cochran, "Sampling Techniques", 3rd ed., 1977, chapter 6): at a fixed rate it is
 * {@code R / R'}, {@code R' = b / B} the realised sampling fraction of {@code b} sampled blocks,
 * so misses and distances scale by {@code 1 / R'}; bounded, it removes the luck of the draw in the
 * thresholds. Without the totals (older agents, or any batch without them): {@code k = 1} and
 * the classic normalisation by {@code W} (section 3.1). <b>Anchor.</b> When every batch also brought
 * the agent's LRU anchor (the hits {@code A} of an exact LRU cache of {@code a} blocks over every
 * reference, sampled or not; {@link StreamTotals#addLruAnchor}), the curve is made to pass through
 * the exact miss ratio there, {@code 1 - A / N}: a few thousand sampled blocks misjudge how many
 * references the hottest blocks take at short distances, an error that moves the whole curve up
 * or down. Up to {@code a} the curve is shifted by the difference; past {@code a} the misses above
 * the cold-miss floor {@code f = B / N} (every first reference misses; the sketch's count, not the
 * sample's) are scaled by {@code (1 - A/N - f) / (m(a) - f)}, so the curve meets the floor where
 * it would (a shift would move the floor by the anchor's error too). Clipped to [0, 1] and kept
 * non-increasing. The reads' curve is always the classic one over the reads. Accuracy on the real
 * traces: ShardsAccuracyTest, docs/analytics.md "Accuracy" and "The LRU anchor".
 *
 * <p><b>Working set</b> (Denning, CACM 11(5), 1968): {@code B} x 4 KiB with totals, else sampled
 * blocks / {@code R}; read and write working sets: that times the share of sampled blocks read,
 * respectively written.
 *
 * <p>State: 16 bytes per sampled block in the LRU stack's map and 8 in its Fenwick tree (8 more in
 * the heap once a bounded sample has filled), the two histograms (about 12 KiB each at most) and the stream totals
 * ({@link #stateBytes}). Not thread-safe.
 */
public abstract sealed class ShardsEstimator implements MrcEstimator permits ShardsFixedRate, ShardsFixedSize {
  /** Bytes per block: the unit of the MRC and the working set (DESIGN section 3). */
  public static final int BLOCK_BYTES = 4096;

  /**
   * {@link #writeTo}'s layout (7: the blocks counted from the agent's shares and the read and written
   * ones; 6, without them, and 5, the stack without its blocks' epochs (read as epoch 0), are read too).
   */
  private static final int STATE_FORMAT = 7;
  /** {@code maxSamples} of an unbounded (fixed-rate) estimator. */
  static final int UNBOUNDED = Integer.MAX_VALUE;

  private final long modulus;
  private final long initialThreshold;
  private final int maxSamples;
  private long threshold;
  /** {@code threshold / modulus}, kept with the threshold (read per reference). */
  private double rate;
  /** {@code P - 1} when {@code P} is a power of two ({@code T_i} is then a mask), else -1. */
  private final long priorityMask;
  private final ReuseDistanceStack stack;
  /**
   * Sampled blocks, the largest {@code T_i} first: made from the stack when the bounded sample
   * first lowers its threshold ({@link #byPriority()}), null until then (most volumes' samples
   * never fill) and when unbounded.
   */
  private LongHeapPriorityQueue byPriority;
  private final DistanceCounts hits;
  private final DistanceCounts readHits;
  private final StreamTotals totals;
  private long references;
  private long readReferences;
  /** Sum of 1 / R_t over the sampled references: the references they stand for. */
  private double weight;
  /** The same over the sampled reads. */
  private double readWeight;
  /** The same over first references: the sample's estimate of the distinct blocks, {@code C}. */
  private double firstWeight;
  private long distinctRead;
  private long distinctWrite;
  /**
   * Sampled blocks counted from the agent's shares ({@link #addShare}): the sample is then the
   * agent's and the stack stays empty; 0 otherwise.
   */
  private long sharedBlocks;

  /**
   * @param modulus the agent's {@code P} (unsigned)
   * @param initialThreshold the agent's {@code T} (unsigned) the estimator starts from
   * @param maxSamples {@code sMax}, or {@link #UNBOUNDED}
   * @param threshold {@code T} now (unsigned)
   * @throws IllegalArgumentException when {@code P = 0}, a threshold is 0 or above {@code P}, or
   *     {@code maxSamples < 1}
   */
  ShardsEstimator(long modulus, long initialThreshold, int maxSamples, long threshold, ReuseDistanceStack stack,
      DistanceCounts hits, DistanceCounts readHits, StreamTotals totals) {
    samplingRate(modulus, initialThreshold);
    samplingRate(modulus, threshold);
    if (maxSamples < 1) {
      throw new IllegalArgumentException("fixed-size SHARDS needs at least 1 sample, got " + maxSamples);
    }
    this.modulus = modulus;
    this.priorityMask = (modulus & (modulus - 1)) == 0 ? modulus - 1 : -1;
    this.initialThreshold = initialThreshold;
    this.maxSamples = maxSamples;
    this.threshold = threshold;
    this.rate = samplingRate(modulus, threshold);
    this.stack = stack;
    this.hits = hits;
    this.readHits = readHits;
    this.totals = totals;
  }

  /**
   * The SHARDS sampling rate {@code R = T / P} for unsigned 64-bit {@code P} and {@code T}.
   *
   * @throws IllegalArgumentException when {@code P = 0}, {@code T = 0} or {@code T > P}
   */
  public static double samplingRate(long modulus, long threshold) {
    return SamplingRate.of(modulus, threshold);
  }

  /** {@link #samplingRate}, an inconsistent state's {@link IOException}. */
  private static double rate(long modulus, long threshold) throws IOException {
    try {
      return samplingRate(modulus, threshold);
    } catch (IllegalArgumentException e) {
      throw new IOException("inconsistent SHARDS state: " + e.getMessage(), e);
    }
  }

  /** {@code T_i = H(L) mod P}. */
  private long priority(long blockHash) {
    return priorityMask != -1 ? blockHash & priorityMask : Long.remainderUnsigned(blockHash, modulus);
  }

  /** The sampled blocks by priority, made from the stack's blocks the first time (O(n)). */
  private LongHeapPriorityQueue byPriority() {
    if (byPriority == null) {
      long[] keys = stack.keys();
      byPriority = new LongHeapPriorityQueue(keys, keys.length,
          (a, b) -> Long.compareUnsigned(priority(b), priority(a)));
    }
    return byPriority;
  }

  /** Whether a block hash is in the sample now, {@code H mod P < T} (unsigned). */
  public boolean isSampled(long blockHash) {
    return Long.compareUnsigned(priority(blockHash), threshold) < 0;
  }

  @Override
  public long modulus() {
    return modulus;
  }

  @Override
  public long threshold() {
    return initialThreshold;
  }

  /** The threshold now (bounded: lowered from {@link #threshold} as the sample filled). */
  public long currentThreshold() {
    return threshold;
  }

  @Override
  public double rate() {
    return rate;
  }

  /** {@code sMax}, or {@link #UNBOUNDED}. */
  int maxSamples() {
    return maxSamples;
  }

  /** Sampled blocks held (bounded: at most {@code sMax}). */
  public int sampledBlocks() {
    return (int) (stack.size() + sharedBlocks);
  }

  /**
   * What a stream's windows ({@link WindowedEstimators}) learn from the estimator's stack: each
   * sampled reference, with the referenced block's marks before it (the epochs of its last read and
   * write, {@link ReuseDistanceStack#previousMarks}), and each block the sample evicts.
   */
  interface SampleObserver {
    /**
     * A sampled reference.
     *
     * @param previous {@link ReuseDistanceStack#FIRST_REFERENCE}, or {@code (sampled distance << 2) | flags}
     * @param marks the block's marks before it (0 for a first reference)
     * @param scale {@code 1 / R} at this reference
     */
    void sampled(long previous, long marks, double scale, boolean write);

    /** A block left the sample (the threshold fell below its {@code T_i}), with its marks. */
    void evicted(long marks);
  }

  private static final SampleObserver NO_OBSERVER = new SampleObserver() {
    @Override
    public void sampled(long previous, long marks, double scale, boolean write) {}

    @Override
    public void evicted(long marks) {}
  };

  /**
   * Processes one reference in time order; references to blocks outside the sample ({@code T_i
   * >= T}) are ignored.
   *
   * @param blockHash {@code H(L)} of the 4 KiB block referenced
   * @param write true for a write, false for a read
   */
  @Override
  public void reference(long blockHash, boolean write) {
    reference(blockHash, write, 0, NO_OBSERVER);
  }

  /**
   * {@link #reference(long, boolean)} in window epoch {@code epoch}, telling {@code observer} of
   * the sampled reference and of any block it makes the sample evict.
   */
  void reference(long blockHash, boolean write, int epoch, SampleObserver observer) {
    if (!isSampled(blockHash)) {
      return;
    }
    double scale = 1 / rate();
    long flag = write ? ReuseDistanceStack.WRITE : ReuseDistanceStack.READ;
    long previous = stack.reference(blockHash, flag, epoch);
    long flags = 0;
    references++;
    weight += scale;
    if (!write) {
      readReferences++;
      readWeight += scale;
    }
    if (previous == ReuseDistanceStack.FIRST_REFERENCE) {
      if (byPriority != null) {
        byPriority.enqueue(blockHash);
      }
      firstWeight += scale;
    } else {
      hits.add(previous >>> 2, scale);
      if (!write) {
        readHits.add(previous >>> 2, scale);
      }
      flags = previous & 3;
    }
    if ((flags & flag) == 0) {
      if (write) {
        distinctWrite++;
      } else {
        distinctRead++;
      }
    }
    observer.sampled(previous, stack.previousMarks(), scale, write);
    if (stack.size() > maxSamples) {
      lowerThreshold(priority(byPriority().firstLong()), observer);
    }
  }

  /**
   * Lowers {@code T} to {@code lowered} (unsigned; no effect unless below the current one),
   * evicting the blocks with {@code T_i >= lowered}: the sample outgrew {@code sMax}, or the agent
   * lowered its threshold (its own bounded sample), so blocks at or above it will not be seen
   * again. Only bounded estimators lower their threshold.
   *
   * @throws IllegalStateException on an unbounded (fixed-rate) estimator
   */
  public void lowerThreshold(long lowered) {
    lowerThreshold(lowered, NO_OBSERVER);
  }

  /** {@link #lowerThreshold(long)}, telling {@code observer} of each block evicted. */
  void lowerThreshold(long lowered, SampleObserver observer) {
    if (maxSamples == UNBOUNDED) {
      throw new IllegalStateException("fixed-rate SHARDS keeps its threshold");
    }
    if (Long.compareUnsigned(lowered, threshold) >= 0) {
      return;
    }
    double loweredRate = samplingRate(modulus, lowered);
    LongHeapPriorityQueue byPriority = byPriority();
    while (!byPriority.isEmpty() && Long.compareUnsigned(priority(byPriority.firstLong()), lowered) >= 0) {
      long marks = stack.remove(byPriority.dequeueLong());
      long flags = ReuseDistanceStack.flags(marks);
      distinctRead -= flags & ReuseDistanceStack.READ;
      distinctWrite -= (flags & ReuseDistanceStack.WRITE) >>> 1;
      observer.evicted(marks);
    }
    threshold = lowered;
    rate = loweredRate;
  }

  /**
   * Adds share {@code i} of {@code shares}, one of 'all' ({@link WindowShares}): the agent ran this
   * sample over the batch's references and counted them as {@link #reference} would. The stack
   * stays empty; its blocks are counted.
   *
   * @throws IllegalStateException when the estimator holds blocks of its own (it simulated
   *     references) or is not of fixed size (its counts are not a {@link DistanceHistogram})
   */
  void addShare(WindowShares shares, int i) {
    if (stack.size() != 0 || !(hits instanceof DistanceHistogram all) || !(readHits instanceof DistanceHistogram reads)) {
      throw new IllegalStateException("only a fixed-size sample that simulates no reference takes shares");
    }
    for (int h = shares.hitStart[i]; h < shares.hitStart[i + 1]; h++) {
      all.addToBucket(shares.hitBuckets[h], shares.hitWeights[h]);
    }
    for (int h = shares.readHitStart[i]; h < shares.readHitStart[i + 1]; h++) {
      reads.addToBucket(shares.readHitBuckets[h], shares.readHitWeights[h]);
    }
    long refs = shares.references[i];
    long readRefs = shares.readReferences[i];
    references += refs;
    readReferences += readRefs;
    weight += shares.weight[i];
    readWeight += shares.readWeight[i];
    firstWeight += shares.firstWeight[i];
    sharedBlocks += refs - shares.blockRepeats[i];
    distinctRead += readRefs - shares.readRepeats[i];
    distinctWrite += refs - readRefs - shares.writeRepeats[i];
  }

  /**
   * Takes the agent's sample's threshold after a batch of shares ({@link WindowShares#samplingThreshold})
   * when it is lower: its evictions are in the shares already. The sample's T only falls; a host's
   * tier's shares come from its volumes' batches in any order, so an older, higher T may come after.
   *
   * @throws IllegalArgumentException when it is 0 or above {@code P}
   */
  void followShares(long sampleThreshold) {
    samplingRate(modulus, sampleThreshold);
    if (Long.compareUnsigned(sampleThreshold, threshold) < 0) {
      rate = samplingRate(modulus, sampleThreshold);
      threshold = sampleThreshold;
    }
  }

  @Override
  public void addStreamTotals(int part, long consideredReferences, int hllPrecision, int[] hllUpdates) {
    totals.add(part, consideredReferences, hllPrecision, hllUpdates);
  }

  @Override
  public void addLruAnchor(long hits, int blocks) {
    totals.addLruAnchor(hits, blocks);
  }

  @Override
  public int sketchPrecision() {
    return totals.sketchPrecision();
  }

  /** True when every batch brought the stream totals (and at least one did). */
  public boolean hasStreamTotals() {
    return totals.complete();
  }

  /** N: all block references considered, summed over the batches (0 without stream totals). */
  public long consideredReferences() {
    return totals.consideredReferences();
  }

  @Override
  public long references() {
    return references;
  }

  @Override
  public long readReferences() {
    return readReferences;
  }

  /** Sampled references that were writes. */
  public long writeReferences() {
    return references - readReferences;
  }

  /** Estimated distinct blocks: the agent's sketch with totals (never below the sampled blocks), else sampled blocks / R. */
  public double distinctBlocksEstimate() {
    if (totals.complete() && threshold != modulus) {
      return Math.max(totals.distinctBlocks(), sampledBlocks());
    }
    return sampledBlocks() / rate();
  }

  /**
   * The realised sampling fraction the estimate scales by: {@code R / k}, at a fixed rate
   * {@code R' = sampled blocks / B} (exactly 1 at {@code R = 1}); {@code R} without totals.
   */
  public double effectiveRate() {
    return rate() / calibration();
  }

  @Override
  public long workingSetBytes() {
    return Math.round(distinctBlocksEstimate()) * BLOCK_BYTES;
  }

  @Override
  public long readWorkingSetBytes() {
    return share(distinctRead);
  }

  @Override
  public long writeWorkingSetBytes() {
    return share(distinctWrite);
  }

  private long share(long sampledBlocks) {
    int blocks = sampledBlocks();
    return blocks == 0 ? 0 : Math.round(distinctBlocksEstimate() * sampledBlocks / blocks) * BLOCK_BYTES;
  }

  @Override
  public MissRatioCurve missRatioCurve(long[] cacheBytes) {
    requireReferences();
    return missRatios(false).at(cacheBytes);
  }

  /** Over the reads: (read weight - read hit weight) / read weight; empty without reads. */
  @Override
  public Optional<MissRatioCurve> readMissRatioCurve(long[] cacheBytes) {
    return readReferences == 0 ? Optional.empty() : Optional.of(readMissRatios(false).at(cacheBytes));
  }

  @Override
  public MissRatioFunction missRatioFunction() {
    requireReferences();
    return missRatios(true);
  }

  @Override
  public Optional<MissRatioFunction> readMissRatioFunction() {
    return readReferences == 0 ? Optional.empty() : Optional.of(readMissRatios(true));
  }

  private void requireReferences() {
    if (references == 0) {
      throw new IllegalStateException("no sampled references yet: the MRC is undefined");
    }
  }

  /**
   * The curve of all references (class comment): normalised by N with the stream totals, anchored
   * when every batch brought the LRU anchor; its own weights, or a copy ({@code detached}).
   */
  private MissRatioFunction missRatios(boolean detached) {
    double k = calibration();
    double expected = totals.complete() ? totals.consideredReferences() / k : weight;
    MissRatioFunction f = MissRatioFunction.of(hits, weight, expected, k, detached);
    if (!totals.complete() || !totals.hasLruAnchor()) {
      return f;
    }
    return f.anchoredAt((long) totals.lruAnchorBlocks() * BLOCK_BYTES,
        1 - (double) totals.lruAnchorHits() / totals.consideredReferences(),
        distinctBlocksEstimate() / totals.consideredReferences());
  }

  /** The classic curve over the reads. */
  private MissRatioFunction readMissRatios(boolean detached) {
    return MissRatioFunction.of(readHits, readWeight, readWeight, calibration(), detached);
  }

  /** {@code k = B / C} with stream totals and {@code R < 1}, else 1 (see the class comment). */
  private double calibration() {
    if (!totals.complete() || firstWeight == 0 || threshold == modulus) {
      return 1;
    }
    return Math.max(totals.distinctBlocks(), sampledBlocks()) / firstWeight;
  }

  /** Empty distance counts of this estimator's layout (a window pane's, {@link WindowPane}). */
  DistanceCounts newDistanceCounts() {
    return maxSamples == UNBOUNDED ? new SampledDistanceCounts(1 / samplingRate(modulus, initialThreshold))
        : new DistanceHistogram();
  }

  /** Reads distance counts of this estimator's layout, written by {@link DistanceCounts#writeTo}. */
  DistanceCounts readDistanceCounts(DataInputView in) throws IOException {
    return maxSamples == UNBOUNDED ? SampledDistanceCounts.readFrom(in, 1 / samplingRate(modulus, initialThreshold))
        : DistanceHistogram.readFrom(in);
  }

  @Override
  public long stateBytes() {
    return 4 + 8 * 3 + 4 + 8 * 5 + 8 * 3 + ReuseDistanceStack.serializedBytes(stack.size()) + hits.serializedBytes()
        + readHits.serializedBytes() + totals.serializedBytes();
  }

  /** A variant's estimator over the given parts (copy and state restore). */
  private static ShardsEstimator create(long modulus, long initialThreshold, int maxSamples, long threshold,
      ReuseDistanceStack stack, DistanceCounts hits, DistanceCounts readHits, StreamTotals totals) {
    return maxSamples == UNBOUNDED
        ? new ShardsFixedRate(modulus, initialThreshold, stack, hits, readHits, totals)
        : new ShardsFixedSize(modulus, initialThreshold, maxSamples, threshold, stack, hits, readHits, totals);
  }

  @Override
  public ShardsEstimator copy() {
    ShardsEstimator c = create(modulus, initialThreshold, maxSamples, threshold, stack.copy(), hits.copy(),
        readHits.copy(), totals.copy());
    c.references = references;
    c.readReferences = readReferences;
    c.weight = weight;
    c.readWeight = readWeight;
    c.firstWeight = firstWeight;
    c.distinctRead = distinctRead;
    c.distinctWrite = distinctWrite;
    c.sharedBlocks = sharedBlocks;
    return c;
  }

  /** Writes format, parameters, counters, the shared blocks, the LRU stack, the histograms and the stream totals. */
  @Override
  public void writeTo(DataOutputView out) throws IOException {
    out.writeInt(STATE_FORMAT);
    out.writeLong(modulus);
    out.writeLong(initialThreshold);
    out.writeLong(threshold);
    out.writeInt(maxSamples);
    out.writeLong(references);
    out.writeLong(readReferences);
    out.writeDouble(weight);
    out.writeDouble(readWeight);
    out.writeDouble(firstWeight);
    out.writeLong(sharedBlocks);
    out.writeLong(distinctRead);
    out.writeLong(distinctWrite);
    stack.writeTo(out);
    hits.writeTo(out);
    readHits.writeTo(out);
    totals.writeTo(out);
  }

  /**
   * Reads a state written by {@link #writeTo}: a {@link ShardsFixedRate} or a {@link ShardsFixedSize}.
   *
   * @throws IOException on a read error, a state of another format or an inconsistent state
   */
  static ShardsEstimator readFrom(DataInputView in) throws IOException {
    int format = in.readInt();
    if (format < STATE_FORMAT - 2 || format > STATE_FORMAT) {
      throw new IOException("SHARDS state format " + format + " is not " + STATE_FORMAT
          + " (state from another version of the job)");
    }
    long modulus = in.readLong();
    long initialThreshold = in.readLong();
    long threshold = in.readLong();
    int maxSamples = in.readInt();
    long references = in.readLong();
    long readReferences = in.readLong();
    double weight = in.readDouble();
    double readWeight = in.readDouble();
    double firstWeight = in.readDouble();
    long sharedBlocks = 0;
    long distinctRead = -1;
    long distinctWrite = -1;
    if (format == STATE_FORMAT) {
      sharedBlocks = in.readLong();
      distinctRead = in.readLong();
      distinctWrite = in.readLong();
    }
    ReuseDistanceStack stack = ReuseDistanceStack.readFrom(in, format == STATE_FORMAT - 2);
    DistanceCounts hits;
    DistanceCounts readHits;
    if (maxSamples == UNBOUNDED) {
      double scale = 1 / rate(modulus, initialThreshold);
      hits = SampledDistanceCounts.readFrom(in, scale);
      readHits = SampledDistanceCounts.readFrom(in, scale);
    } else {
      hits = DistanceHistogram.readFrom(in);
      readHits = DistanceHistogram.readFrom(in);
    }
    StreamTotals totals = StreamTotals.readFrom(in);
    ShardsEstimator s;
    try {
      s = create(modulus, initialThreshold, maxSamples, threshold, stack, hits, readHits, totals);
    } catch (IllegalArgumentException e) {
      throw new IOException("inconsistent SHARDS state: " + e.getMessage(), e);
    }
    s.references = references;
    s.readReferences = readReferences;
    s.weight = weight;
    s.readWeight = readWeight;
    s.firstWeight = firstWeight;
    s.sharedBlocks = sharedBlocks;
    s.distinctRead = format == STATE_FORMAT ? distinctRead : stack.count(ReuseDistanceStack.READ);
    s.distinctWrite = format == STATE_FORMAT ? distinctWrite : stack.count(ReuseDistanceStack.WRITE);
    return s;
  }
}
