package io.tierwise.jobs.workingset;

import it.unimi.dsi.fastutil.longs.LongHeapPriorityQueue;
import java.io.IOException;
import java.util.Optional;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Fixed-size SHARDS: the LRU miss ratio curve and working set sizes of one reference stream from
 * at most {@code sMax} sampled blocks, whatever the stream's footprint.
 *
 * <p>Source: C. A. Waldspurger, N. Park, A. Garthwaite and I. Ahmad, "Efficient MRC Construction
 * with SHARDS", USENIX FAST 2015, section 4 ("fixed-size sampling"). A block {@code L} is in the
 * sample while {@code T_i = H(L) mod P < T}. The threshold starts at the agent's {@code T} (the
 * agent samples at a fixed rate; this estimator can only lower it). When a new block would make the
 * sample hold more than {@code sMax} blocks, the blocks with the largest {@code T_i} are evicted
 * (a max-heap on {@code T_i}) and {@code T} becomes that {@code T_i}: the rate {@code R = T / P}
 * falls as the footprint grows, so the sample stays a uniform random subset of the blocks of size
 * about {@code sMax}. Evicted blocks' later references are filtered out.
 *
 * <p>Each sampled reference is counted at the rate {@code R_t} in force when it came: its stack
 * distance among the sampled blocks ({@link ReuseDistanceStack}) scaled by {@code 1 / R_t} goes into
 * a {@link DistanceHistogram} with weight {@code 1 / R_t}. That equals the paper's rescaling of the
 * histogram by {@code R_new / R_old} at each lowering, expressed at rate 1. The miss ratio at
 * {@code c} blocks is {@code (total weight - weight of distances below c) / N}, {@code N} the
 * agent's count of all references (SHARDS_adj, section 3.2: normalise by the expected sample, not
 * by the references that happened to be sampled); without the agent's stream totals (older agents)
 * by the total weight instead. With the totals, misses and distances are also scaled by
 * {@code k = B / C} ({@link #calibration}), the agent's distinct-block count over the sample's own
 * estimate of it: on the CloudPhysics trace this halves the mean absolute error of 20 random keys
 * (0.009 to 0.0046, ShardsAccuracyTest). Working set: the agent's distinct-block estimate {@code B}
 * ({@link StreamTotals}) times 4 KiB, read/write working sets {@code B} times the share of sampled
 * blocks read/written; without totals, sampled blocks / {@code R}.
 *
 * <p>State: 16 bytes per sampled block in the LRU stack's map, 8 in its Fenwick tree and 8 in the
 * heap, plus the histogram (about 12 KiB at most) and the distinct-block sketch: about 300 KiB in
 * memory and 140 KiB serialised for {@code sMax} = 8,192 ({@link #stateBytes}). Not thread-safe.
 */
public final class ShardsFixedSize implements MrcEstimator {
  /** The sample size the job uses: 8,192 blocks (SHARDS section 5.2: s_max = 8K, MAE about 0.003). */
  public static final int DEFAULT_MAX_SAMPLES = 8192;

  private static final int STATE_FORMAT = 1;

  private final long modulus;
  private final long initialThreshold;
  private final int maxSamples;
  private long threshold;
  private final ReuseDistanceStack stack;
  /** Sampled blocks, the largest {@code T_i} first. */
  private final LongHeapPriorityQueue byPriority;
  private final DistanceHistogram hits;
  private final DistanceHistogram readHits;
  private final StreamTotals totals;
  private long references;
  private long readReferences;
  /** Sum of 1 / R_t over the sampled references: the references they stand for. */
  private double weight;
  /** The same over the sampled reads. */
  private double readWeight;
  /** The same over first references: an estimate of the distinct blocks, {@code C}. */
  private double firstWeight;
  private long distinctRead;
  private long distinctWrite;

  /**
   * An empty estimator.
   *
   * @param modulus the agent's {@code P} (unsigned)
   * @param threshold the agent's {@code T} (unsigned), where the threshold starts
   * @param maxSamples {@code sMax}, the most sampled blocks held, &ge; 1
   * @throws IllegalArgumentException when {@code P = 0}, {@code T = 0}, {@code T > P} or
   *     {@code maxSamples < 1}
   */
  public ShardsFixedSize(long modulus, long threshold, int maxSamples) {
    this(modulus, threshold, maxSamples, threshold, new ReuseDistanceStack(), new DistanceHistogram(),
        new DistanceHistogram(), new StreamTotals());
  }

  private ShardsFixedSize(long modulus, long initialThreshold, int maxSamples, long threshold,
      ReuseDistanceStack stack, DistanceHistogram hits, DistanceHistogram readHits, StreamTotals totals) {
    ShardsFixedRate.samplingRate(modulus, initialThreshold);
    ShardsFixedRate.samplingRate(modulus, threshold);
    if (maxSamples < 1) {
      throw new IllegalArgumentException("fixed-size SHARDS needs at least 1 sample, got " + maxSamples);
    }
    this.modulus = modulus;
    this.initialThreshold = initialThreshold;
    this.maxSamples = maxSamples;
    this.threshold = threshold;
    this.stack = stack;
    this.hits = hits;
    this.readHits = readHits;
    this.totals = totals;
    this.byPriority = new LongHeapPriorityQueue((a, b) -> Long.compareUnsigned(priority(b), priority(a)));
    for (long key : stack.keys()) {
      byPriority.enqueue(key);
    }
  }

  /** {@code T_i = H(L) mod P}. */
  private long priority(long blockHash) {
    return Long.remainderUnsigned(blockHash, modulus);
  }

  @Override
  public String method() {
    return METHOD_FIXED_SIZE;
  }

  @Override
  public long modulus() {
    return modulus;
  }

  @Override
  public long threshold() {
    return initialThreshold;
  }

  /** The threshold now, lowered from {@link #threshold} as the sample filled. */
  public long currentThreshold() {
    return threshold;
  }

  /** {@code sMax}. */
  public int maxSamples() {
    return maxSamples;
  }

  @Override
  public double rate() {
    return ShardsFixedRate.samplingRate(modulus, threshold);
  }

  /** Sampled blocks held, at most {@code sMax}. */
  public int sampledBlocks() {
    return stack.size();
  }

  @Override
  public void reference(long blockHash, boolean write) {
    if (Long.compareUnsigned(priority(blockHash), threshold) >= 0) {
      return;
    }
    double scale = 1 / rate();
    long flag = write ? ReuseDistanceStack.WRITE : ReuseDistanceStack.READ;
    long previous = stack.reference(blockHash, flag);
    long flags = 0;
    references++;
    weight += scale;
    if (!write) {
      readReferences++;
      readWeight += scale;
    }
    if (previous == ReuseDistanceStack.FIRST_REFERENCE) {
      byPriority.enqueue(blockHash);
      firstWeight += scale;
    } else {
      double distance = (previous >>> 2) * scale;
      hits.add(distance, scale);
      if (!write) {
        readHits.add(distance, scale);
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
    if (stack.size() > maxSamples) {
      evict();
    }
  }

  /** Evicts the blocks with the largest {@code T_i} and lowers {@code T} to it. */
  private void evict() {
    lowerThreshold(priority(byPriority.firstLong()));
  }

  /**
   * Lowers {@code T} to {@code lowered} (unsigned; no effect unless below the current one),
   * evicting the blocks with {@code T_i >= lowered}: the agent lowered its threshold (its own
   * bounded sample), so blocks at or above it will not be seen again.
   */
  public void lowerThreshold(long lowered) {
    if (Long.compareUnsigned(lowered, threshold) >= 0) {
      return;
    }
    ShardsFixedRate.samplingRate(modulus, lowered);
    while (!byPriority.isEmpty() && Long.compareUnsigned(priority(byPriority.firstLong()), lowered) >= 0) {
      long flags = stack.remove(byPriority.dequeueLong());
      distinctRead -= flags & ReuseDistanceStack.READ;
      distinctWrite -= (flags & ReuseDistanceStack.WRITE) >>> 1;
    }
    threshold = lowered;
  }

  @Override
  public void addStreamTotals(long consideredReferences, int hllPrecision, int[] hllUpdates) {
    totals.add(consideredReferences, hllPrecision, hllUpdates);
  }

  @Override
  public int sketchPrecision() {
    return totals.sketchPrecision();
  }

  /** True when every batch brought the stream totals (and at least one did). */
  public boolean hasStreamTotals() {
    return totals.complete();
  }

  @Override
  public long references() {
    return references;
  }

  @Override
  public long readReferences() {
    return readReferences;
  }

  /** Estimated distinct blocks: the agent's sketch with totals, else sampled blocks / R. */
  public double distinctBlocksEstimate() {
    if (totals.complete() && threshold != modulus) {
      return Math.max(totals.distinctBlocks(), stack.size());
    }
    return stack.size() / rate();
  }

  @Override
  public long workingSetBytes() {
    return Math.round(distinctBlocksEstimate()) * ShardsFixedRate.BLOCK_BYTES;
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
    return stack.size() == 0 ? 0
        : Math.round(distinctBlocksEstimate() * sampledBlocks / stack.size()) * ShardsFixedRate.BLOCK_BYTES;
  }

  @Override
  public MissRatioCurve missRatioCurve(long[] cacheBytes) {
    if (references == 0) {
      throw new IllegalStateException("no sampled references yet: the MRC is undefined");
    }
    double k = calibration();
    return curve(cacheBytes, hits, weight, totals.complete() ? totals.consideredReferences() / k : weight, k);
  }

  /** Over the reads: (read weight - read hit weight) / read weight; empty without reads. */
  @Override
  public Optional<MissRatioCurve> readMissRatioCurve(long[] cacheBytes) {
    return readReferences == 0 ? Optional.empty()
        : Optional.of(curve(cacheBytes, readHits, readWeight, readWeight, calibration()));
  }

  /**
   * The ratio-estimator calibration {@code k = B / C}: the agent's distinct-block count over the
   * sample's own estimate of it (the weight of first references); 1 without stream totals. Misses
   * and distances are scaled by it, as fixed-rate SHARDS scales by {@code 1/R'} (Cochran,
   * "Sampling Techniques", chapter 6): it removes the luck of the draw in how many blocks the
   * sample holds.
   */
  private double calibration() {
    if (!totals.complete() || firstWeight == 0 || threshold == modulus) {
      return 1;
    }
    return Math.max(totals.distinctBlocks(), stack.size()) / firstWeight;
  }

  /** {@code k (total - weight of distances below c / k) / expected} at each size c. */
  private static MissRatioCurve curve(long[] cacheBytes, DistanceHistogram hitHistogram, double total,
      double expected, double k) {
    double[] limits = new double[cacheBytes.length];
    for (int i = 0; i < limits.length; i++) {
      limits[i] = (double) cacheBytes[i] / ShardsFixedRate.BLOCK_BYTES / k;
    }
    double[] hit = hitHistogram.weightBelow(limits);
    double[] miss = new double[limits.length];
    for (int i = 0; i < miss.length; i++) {
      miss[i] = Math.max(0, Math.min(1, (total - hit[i]) / expected));
    }
    return new MissRatioCurve(cacheBytes, miss);
  }

  @Override
  public long stateBytes() {
    return 4 + 8 * 3 + 4 + 8 * 5 + ReuseDistanceStack.serializedBytes(stack.size()) + hits.serializedBytes()
        + readHits.serializedBytes() + totals.serializedBytes();
  }

  @Override
  public ShardsFixedSize copy() {
    ShardsFixedSize c = new ShardsFixedSize(modulus, initialThreshold, maxSamples, threshold, stack.copy(),
        hits.copy(), readHits.copy(), totals.copy());
    c.references = references;
    c.readReferences = readReferences;
    c.weight = weight;
    c.readWeight = readWeight;
    c.firstWeight = firstWeight;
    c.distinctRead = distinctRead;
    c.distinctWrite = distinctWrite;
    return c;
  }

  /** Writes format, parameters, counters, the LRU stack, the histogram and the stream totals. */
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
    stack.writeTo(out);
    hits.writeTo(out);
    readHits.writeTo(out);
    totals.writeTo(out);
  }

  /**
   * Reads a state written by {@link #writeTo}.
   *
   * @throws IOException on a read error or an inconsistent state
   */
  static ShardsFixedSize readFrom(DataInputView in) throws IOException {
    int format = in.readInt();
    if (format != STATE_FORMAT) {
      throw new IOException("fixed-size SHARDS state format " + format + " is not " + STATE_FORMAT);
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
    ReuseDistanceStack stack = ReuseDistanceStack.readFrom(in);
    DistanceHistogram hits = DistanceHistogram.readFrom(in);
    DistanceHistogram readHits = DistanceHistogram.readFrom(in);
    StreamTotals totals = StreamTotals.readFrom(in);
    ShardsFixedSize s;
    try {
      s = new ShardsFixedSize(modulus, initialThreshold, maxSamples, threshold, stack, hits, readHits, totals);
    } catch (IllegalArgumentException e) {
      throw new IOException("inconsistent fixed-size SHARDS state: " + e.getMessage(), e);
    }
    s.references = references;
    s.readReferences = readReferences;
    s.weight = weight;
    s.readWeight = readWeight;
    s.firstWeight = firstWeight;
    s.distinctRead = stack.count(ReuseDistanceStack.READ);
    s.distinctWrite = stack.count(ReuseDistanceStack.WRITE);
    return s;
  }
}
