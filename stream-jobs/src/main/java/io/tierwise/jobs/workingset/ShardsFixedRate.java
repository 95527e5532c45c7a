package io.tierwise.jobs.workingset;

import it.unimi.dsi.fastutil.longs.Long2LongMap;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;
import java.io.IOException;
import java.util.Arrays;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Fixed-rate SHARDS: the LRU miss ratio curve and the working set size of one volume, estimated
 * from spatially sampled 4 KiB block references.
 *
 * <p>Source: C. A. Waldspurger, N. Park, A. Garthwaite and I. Ahmad, "Efficient MRC
 * Construction with SHARDS", USENIX FAST 2015, section 3 ("fixed-rate sampling"). The agent keeps
 * a reference to block {@code L} when {@code H(L) mod P < T}; the sampling rate is
 * {@code R = T / P}. Because sampling is by block, not by reference, every reference to a
 * sampled block is kept, and the sampled blocks form a uniform random subset of all blocks.
 * Then:
 *
 * <ul>
 *   <li>the <b>stack distance</b> of a sampled reference, counted among sampled references only
 *       (the number of distinct sampled blocks referenced since the previous reference to the same
 *       block), estimates the true LRU stack distance times {@code R}; it is scaled by {@code 1/R}
 *       (Mattson et al., IBM Systems Journal 9(2), 1970, for stack distances; SHARDS section 3.1
 *       for the scaling);
 *   <li>an LRU cache of {@code c} bytes, {@code c / 4096} blocks, hits a reference exactly when its
 *       stack distance is below {@code c / 4096}; so
 *       {@code missRatio(c) = 1 - #(sampled refs with distance / R < c / 4096) / #(sampled refs)},
 *       first references (cold misses) counting as infinite distance;
 *   <li>the <b>working set size</b> (Denning, "The working set model for program behavior",
 *       CACM 11(5), 1968) is the distinct sampled blocks divided by {@code R}, times 4096 bytes;
 *       read and write working sets count the distinct blocks seen read, respectively written.
 * </ul>
 *
 * <p>Stack distances are computed as in Bennett and Kruskal, "LRU stack processing", IBM J. R&amp;D
 * 19(4), 1975: each sampled reference gets the next logical time; a map holds each sampled block's
 * last access time and a Fenwick tree ({@link FenwickTree}) holds one mark per block at that time;
 * the distance of a re-reference is the number of marks after the block's previous time, in
 * O(log n). When the time counter reaches the tree's capacity the live times are renumbered
 * 0..n-1 (order kept), so memory stays proportional to the distinct sampled blocks, not to the
 * references. Distances are kept exactly in a histogram indexed by sampled distance; the MRC can
 * then be evaluated at any cache size.
 *
 * <p><b>Stream totals.</b> Agents send, per batch, the count of all block references they
 * considered (sampled or not; summed here into {@code N}) and a HyperLogLog sketch of the distinct
 * blocks considered ({@link DistinctBlockSketch}, estimate {@code B}): fields 9 to 11 of
 * {@code tierwise.v1.ReferenceBatch}. With them the estimate uses the <i>realised</i> sampling
 * fraction {@code R' = b / B}, {@code b} the distinct sampled blocks, in place of the nominal
 * {@code R}: distances scale by {@code 1/R'}, and {@code missRatio(c) = #(sampled refs with
 * distance / R' >= c / 4096, or first references) / (R' N)}; the working set is {@code B} x 4096
 * bytes (read and write working sets: distinct sampled blocks read, written, / {@code R'}). The
 * MRC formula is the SHARDS_adj correction
 * (section 3.2: add {@code N R - #sampled refs} to the distance-0 bucket and divide by
 * {@code N R}, which leaves sampled misses / {@code (N R)}) with {@code R'} for {@code R}; it is
 * the ratio estimator of survey sampling with the block count as auxiliary variable (Cochran,
 * "Sampling Techniques", 3rd ed., 1977, chapter 6). Why: the sample is a random set of blocks, so
 * its size {@code b} is binomial (1.9 % standard error at 2,700 sampled blocks) and its references
 * depend on whether a few very hot blocks are in it (a block with 2,700 references is 0.2 % of
 * the CloudPhysics trace but 20 % of a 1 % sample). Normalising by the sampled references is
 * swayed by the hot blocks; normalising by {@code N R} (SHARDS_adj) by the sample size; misses per
 * sampled block times {@code B / N} by neither, and {@code 1/R'} also corrects the distance scale
 * for the sample size. Measured at R = 0.01 on the CloudPhysics trace, 13 sizes 16 MiB to 1 GiB,
 * 2,000 random hash keys (ShardsAccuracyTest): mean absolute error above 0.03 for 12 % of keys
 * with the classic estimate (max 0.21), 14 % with SHARDS_adj and nominal R (max 0.075), 0.35 %
 * with {@code R'} (median 0.0072, max 0.037). Without the totals (older agents,
 * or any batch of the window without them) the classic estimate applies: nominal {@code R},
 * normalised by the sampled references, working set = distinct sampled blocks / R.
 *
 * <p>Not thread-safe. Serialised for Flink state by {@link ShardsFixedRateSerializer}.
 */
public final class ShardsFixedRate {
  /** Bytes per block: the unit of the MRC and the working set (DESIGN section 3). */
  public static final int BLOCK_BYTES = 4096;

  private static final int MIN_CAPACITY = 1024;
  private static final int FLAG_BITS = 2;
  private static final long READ_FLAG = 1;
  private static final long WRITE_FLAG = 2;
  private static final long NOT_SEEN = -1;
  /** Version of {@link #writeTo}'s layout (2: with the stream totals). */
  private static final int STATE_FORMAT = 2;

  private final long modulus;
  private final long threshold;
  private final double rate;
  /** Sampled block hash -> (last access time << 2) | READ_FLAG | WRITE_FLAG. */
  private final Long2LongOpenHashMap lastAccess;
  /** One mark per sampled block at its last access time. */
  private FenwickTree live;
  /** The next logical time. */
  private int clock;
  /** distanceCounts[d]: re-references with sampled stack distance d. */
  private long[] distanceCounts;
  private long references;
  private long readReferences;
  private long writeReferences;
  private long distinctRead;
  private long distinctWrite;
  /** N: considered references summed over the batches with stream totals. */
  private long consideredReferences;
  /** Distinct blocks considered; null until a batch brings the sketch. */
  private DistinctBlockSketch distinctBlocks;
  /** Some batch came without stream totals: the classic estimate applies. */
  private boolean totalsIncomplete;

  /**
   * An empty estimator for sampling parameters {@code P} (modulus) and {@code T} (threshold),
   * both unsigned 64-bit as in {@code tierwise.v1.ReferenceBatch}.
   *
   * @throws IllegalArgumentException when {@code P = 0}, {@code T = 0} or {@code T > P}
   */
  public ShardsFixedRate(long modulus, long threshold) {
    this(modulus, threshold, new Long2LongOpenHashMap(), new FenwickTree(MIN_CAPACITY), 0,
        new long[16]);
  }

  private ShardsFixedRate(long modulus, long threshold, Long2LongOpenHashMap lastAccess,
      FenwickTree live, int clock, long[] distanceCounts) {
    this.rate = samplingRate(modulus, threshold);
    this.modulus = modulus;
    this.threshold = threshold;
    this.lastAccess = lastAccess;
    this.lastAccess.defaultReturnValue(NOT_SEEN);
    this.live = live;
    this.clock = clock;
    this.distanceCounts = distanceCounts;
  }

  /**
   * The SHARDS sampling rate {@code R = T / P} for unsigned 64-bit {@code P} and {@code T}.
   *
   * @throws IllegalArgumentException when {@code P = 0}, {@code T = 0} or {@code T > P}
   */
  public static double samplingRate(long modulus, long threshold) {
    if (modulus == 0 || threshold == 0 || Long.compareUnsigned(threshold, modulus) > 0) {
      throw new IllegalArgumentException("SHARDS needs 0 < threshold <= modulus, got threshold "
          + Long.toUnsignedString(threshold) + " and modulus " + Long.toUnsignedString(modulus));
    }
    return unsignedToDouble(threshold) / unsignedToDouble(modulus);
  }

  private static double unsignedToDouble(long v) {
    return v >= 0 ? v : (double) (v >>> 1) * 2.0 + (v & 1);
  }

  /**
   * Whether a block hash is in the sample, {@code H mod P < T} (unsigned).
   */
  public boolean isSampled(long blockHash) {
    return Long.compareUnsigned(Long.remainderUnsigned(blockHash, modulus), threshold) < 0;
  }

  /** The hash modulus {@code P}. */
  public long modulus() {
    return modulus;
  }

  /** The threshold {@code T}. */
  public long threshold() {
    return threshold;
  }

  /** The sampling rate {@code R = T / P}. */
  public double rate() {
    return rate;
  }

  /**
   * Processes one sampled reference, in time order.
   *
   * @param blockHash {@code H(L)} of the 4 KiB block referenced
   * @param write true for a write, false for a read
   */
  public void reference(long blockHash, boolean write) {
    if (clock == live.capacity()) {
      compact();
    }
    long previous = lastAccess.get(blockHash);
    long flags = 0;
    if (previous != NOT_SEEN) {
      int previousTime = (int) (previous >>> FLAG_BITS);
      int distance = lastAccess.size() - live.prefixSum(previousTime);
      live.add(previousTime, -1);
      countDistance(distance);
      flags = previous & (READ_FLAG | WRITE_FLAG);
    }
    long flag = write ? WRITE_FLAG : READ_FLAG;
    if ((flags & flag) == 0) {
      if (write) {
        distinctWrite++;
      } else {
        distinctRead++;
      }
    }
    if (write) {
      writeReferences++;
    } else {
      readReferences++;
    }
    references++;
    live.add(clock, 1);
    lastAccess.put(blockHash, ((long) clock << FLAG_BITS) | flags | flag);
    clock++;
  }

  /**
   * Adds one batch's stream totals ({@code tierwise.v1.ReferenceBatch} fields 9 to 11). A batch
   * without them ({@code hllPrecision = 0}) switches the estimate to classic SHARDS for good.
   *
   * @param consideredReferences N of the batch: all block references of its span, &ge; 0
   * @param hllPrecision p of the distinct-block sketch, 0 when the batch has no totals
   * @param hllUpdates register updates {@code (index << 8) | value}
   * @throws IllegalArgumentException when p differs from earlier batches' ({@link #sketchPrecision})
   *     or an update is invalid ({@link DistinctBlockSketch#checkUpdate})
   */
  public void addStreamTotals(long consideredReferences, int hllPrecision, int[] hllUpdates) {
    if (hllPrecision == 0) {
      totalsIncomplete = true;
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

  /** p of the distinct-block sketch, 0 before any batch brought one. */
  public int sketchPrecision() {
    return distinctBlocks == null ? 0 : distinctBlocks.precision();
  }

  /** True when every batch brought the stream totals (and at least one did): the R' estimate. */
  public boolean hasStreamTotals() {
    return !totalsIncomplete && distinctBlocks != null && consideredReferences > 0;
  }

  /** N: all block references considered, summed over the batches (0 without stream totals). */
  public long consideredReferences() {
    return consideredReferences;
  }

  private void countDistance(int distance) {
    if (distance >= distanceCounts.length) {
      distanceCounts = Arrays.copyOf(distanceCounts, Math.max(distance + 1, 2 * distanceCounts.length));
    }
    distanceCounts[distance]++;
  }

  /** Renumbers the live last-access times 0..n-1 in order and sizes the tree to 2n. */
  private void compact() {
    int n = lastAccess.size();
    long[] hashes = new long[n];
    long[] values = new long[n];
    long[] timeThenIndex = new long[n];
    int i = 0;
    for (Long2LongMap.Entry e : lastAccess.long2LongEntrySet()) {
      hashes[i] = e.getLongKey();
      values[i] = e.getLongValue();
      timeThenIndex[i] = ((values[i] >>> FLAG_BITS) << 32) | i;
      i++;
    }
    Arrays.sort(timeThenIndex);
    int[] times = new int[n];
    for (int t = 0; t < n; t++) {
      int k = (int) timeThenIndex[t];
      lastAccess.put(hashes[k], ((long) t << FLAG_BITS) | (values[k] & (READ_FLAG | WRITE_FLAG)));
      times[t] = t;
    }
    live = FenwickTree.withMarks(Math.max(MIN_CAPACITY, 2 * n), times);
    clock = n;
  }

  /** Sampled references processed. */
  public long references() {
    return references;
  }

  /** Sampled references that were reads. */
  public long readReferences() {
    return readReferences;
  }

  /** Sampled references that were writes. */
  public long writeReferences() {
    return writeReferences;
  }

  /** Distinct sampled blocks. */
  public long distinctBlocks() {
    return lastAccess.size();
  }

  /**
   * The sampling fraction distances and counts are scaled by: with stream totals the realised
   * one, {@code R' = distinct sampled blocks / estimated distinct blocks} (at most 1, exactly 1
   * when {@code R = 1}); otherwise the nominal {@code R}. 0 before any sampled block.
   */
  public double effectiveRate() {
    if (!hasStreamTotals() || rate == 1) {
      return rate;
    }
    double blocks = distinctBlocksEstimate();
    return blocks == 0 ? 0 : lastAccess.size() / blocks;
  }

  /**
   * Estimated distinct blocks of the stream: the sketch's estimate (never below the distinct
   * sampled blocks) with stream totals, else distinct sampled blocks / R.
   */
  public double distinctBlocksEstimate() {
    if (!hasStreamTotals()) {
      return lastAccess.size() / rate;
    }
    return rate == 1 ? lastAccess.size() : Math.max(distinctBlocks.estimate(), lastAccess.size());
  }

  /** Estimated working set size: {@link #distinctBlocksEstimate} x 4096, bytes. */
  public long workingSetBytes() {
    return Math.round(distinctBlocksEstimate()) * BLOCK_BYTES;
  }

  /** Estimated read working set size (distinct blocks read at least once), bytes. */
  public long readWorkingSetBytes() {
    return scaleBlocksToBytes(distinctRead);
  }

  /** Estimated write working set size (distinct blocks written at least once), bytes. */
  public long writeWorkingSetBytes() {
    return scaleBlocksToBytes(distinctWrite);
  }

  private long scaleBlocksToBytes(long sampledBlocks) {
    double r = effectiveRate();
    return r == 0 ? 0 : Math.round(sampledBlocks / r) * BLOCK_BYTES;
  }

  /**
   * Estimated LRU miss ratio of a cache of {@code cacheBytes} bytes.
   *
   * @return a value in [0, 1]
   * @throws IllegalStateException when no reference has been processed
   */
  public double missRatioAt(long cacheBytes) {
    return missRatioCurve(new long[] {cacheBytes}).missRatio(0);
  }

  /**
   * The estimated MRC at the given cache sizes in one pass over the distance histogram.
   *
   * @param cacheBytes cache sizes in bytes, strictly increasing
   * @throws IllegalStateException when no reference has been processed
   * @throws IllegalArgumentException when the sizes do not increase
   */
  public MissRatioCurve missRatioCurve(long[] cacheBytes) {
    if (references == 0) {
      throw new IllegalStateException("no sampled references yet: the MRC is undefined");
    }
    double scale = effectiveRate();
    // Expected sampled references: R' N with stream totals (SHARDS_adj), else the sampled ones.
    double expectedReferences = hasStreamTotals() ? scale * consideredReferences : references;
    double[] missRatios = new double[cacheBytes.length];
    long hits = 0;
    int distance = 0;
    for (int i = 0; i < cacheBytes.length; i++) {
      // A reference hits a cache of c blocks when distance / R' < c, i.e. distance < c * R'.
      double limit = (double) cacheBytes[i] / BLOCK_BYTES * scale;
      while (distance < distanceCounts.length && distance < limit) {
        hits += distanceCounts[distance++];
      }
      missRatios[i] = Math.min(1.0, (references - hits) / expectedReferences);
    }
    return new MissRatioCurve(cacheBytes, missRatios);
  }

  /** An independent deep copy. */
  public ShardsFixedRate copy() {
    ShardsFixedRate c = new ShardsFixedRate(modulus, threshold, new Long2LongOpenHashMap(lastAccess),
        live.copy(), clock, distanceCounts.clone());
    c.copyCounters(this);
    return c;
  }

  private void copyCounters(ShardsFixedRate from) {
    references = from.references;
    readReferences = from.readReferences;
    writeReferences = from.writeReferences;
    distinctRead = from.distinctRead;
    distinctWrite = from.distinctWrite;
    consideredReferences = from.consideredReferences;
    distinctBlocks = from.distinctBlocks == null ? null : from.distinctBlocks.copy();
    totalsIncomplete = from.totalsIncomplete;
  }

  /**
   * Writes the state: format version, sampling parameters, counters, the distance histogram, the
   * (block hash, last access) pairs and the stream totals. The Fenwick tree is rebuilt on read.
   */
  void writeTo(DataOutputView out) throws IOException {
    out.writeInt(STATE_FORMAT);
    out.writeLong(modulus);
    out.writeLong(threshold);
    out.writeLong(references);
    out.writeLong(readReferences);
    out.writeLong(writeReferences);
    out.writeInt(clock);
    out.writeInt(live.capacity());
    int used = distanceCounts.length;
    while (used > 0 && distanceCounts[used - 1] == 0) {
      used--;
    }
    out.writeInt(used);
    for (int d = 0; d < used; d++) {
      out.writeLong(distanceCounts[d]);
    }
    out.writeInt(lastAccess.size());
    for (Long2LongMap.Entry e : lastAccess.long2LongEntrySet()) {
      out.writeLong(e.getLongKey());
      out.writeLong(e.getLongValue());
    }
    out.writeLong(consideredReferences);
    out.writeBoolean(totalsIncomplete);
    out.writeBoolean(distinctBlocks != null);
    if (distinctBlocks != null) {
      distinctBlocks.writeTo(out);
    }
  }

  /**
   * Reads a state written by {@link #writeTo}.
   *
   * @throws IOException on a read error or an inconsistent state
   */
  static ShardsFixedRate readFrom(DataInputView in) throws IOException {
    int format = in.readInt();
    if (format != STATE_FORMAT) {
      throw new IOException("SHARDS state format " + format + " is not " + STATE_FORMAT
          + " (state from another version of the job)");
    }
    long modulus = in.readLong();
    long threshold = in.readLong();
    long references = in.readLong();
    long readReferences = in.readLong();
    long writeReferences = in.readLong();
    int clock = in.readInt();
    int capacity = in.readInt();
    int used = in.readInt();
    long[] distanceCounts = new long[Math.max(16, used)];
    for (int d = 0; d < used; d++) {
      distanceCounts[d] = in.readLong();
    }
    int blocks = in.readInt();
    if (capacity < 1 || clock > capacity || blocks > clock || used < 0) {
      throw new IOException("inconsistent SHARDS state: clock " + clock + ", capacity " + capacity
          + ", blocks " + blocks + ", histogram length " + used);
    }
    Long2LongOpenHashMap lastAccess = new Long2LongOpenHashMap(blocks);
    int[] times = new int[blocks];
    long distinctRead = 0;
    long distinctWrite = 0;
    for (int i = 0; i < blocks; i++) {
      long hash = in.readLong();
      long value = in.readLong();
      lastAccess.put(hash, value);
      times[i] = (int) (value >>> FLAG_BITS);
      distinctRead += value & READ_FLAG;
      distinctWrite += (value & WRITE_FLAG) >>> 1;
    }
    ShardsFixedRate s;
    try {
      s = new ShardsFixedRate(modulus, threshold, lastAccess,
          FenwickTree.withMarks(capacity, times), clock, distanceCounts);
    } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
      throw new IOException("inconsistent SHARDS state: " + e.getMessage(), e);
    }
    s.references = references;
    s.readReferences = readReferences;
    s.writeReferences = writeReferences;
    s.distinctRead = distinctRead;
    s.distinctWrite = distinctWrite;
    s.consideredReferences = in.readLong();
    s.totalsIncomplete = in.readBoolean();
    s.distinctBlocks = in.readBoolean() ? DistinctBlockSketch.readFrom(in) : null;
    return s;
  }
}
