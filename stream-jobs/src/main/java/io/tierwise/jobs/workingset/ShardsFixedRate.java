package io.tierwise.jobs.workingset;

import java.io.IOException;
import java.util.Arrays;
import java.util.Optional;
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
 * <p>Stack distances come from {@link ReuseDistanceStack} (Bennett and Kruskal 1975), so memory
 * is proportional to the distinct sampled blocks (unbounded: {@link ShardsFixedSize} bounds it).
 * Distances are kept exactly in a histogram indexed by sampled distance; the MRC can then be
 * evaluated at any cache size.
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
public final class ShardsFixedRate implements MrcEstimator {
  /** Bytes per block: the unit of the MRC and the working set (DESIGN section 3). */
  public static final int BLOCK_BYTES = 4096;

  /** Version of {@link #writeTo}'s layout (3: LRU stack in {@link ReuseDistanceStack}'s layout). */
  private static final int STATE_FORMAT = 3;

  private final long modulus;
  private final long threshold;
  private final double rate;
  private final ReuseDistanceStack stack;
  /** distanceCounts[d]: re-references with sampled stack distance d. */
  private long[] distanceCounts;
  /** readDistanceCounts[d]: re-references that were reads, with sampled stack distance d. */
  private long[] readDistanceCounts;
  private long references;
  private long readReferences;
  private long writeReferences;
  private long distinctRead;
  private long distinctWrite;
  private final StreamTotals totals;

  /**
   * An empty estimator for sampling parameters {@code P} (modulus) and {@code T} (threshold),
   * both unsigned 64-bit as in {@code tierwise.v1.ReferenceBatch}.
   *
   * @throws IllegalArgumentException when {@code P = 0}, {@code T = 0} or {@code T > P}
   */
  public ShardsFixedRate(long modulus, long threshold) {
    this(modulus, threshold, new ReuseDistanceStack(), new long[16], new long[16], new StreamTotals());
  }

  private ShardsFixedRate(long modulus, long threshold, ReuseDistanceStack stack, long[] distanceCounts,
      long[] readDistanceCounts, StreamTotals totals) {
    this.rate = samplingRate(modulus, threshold);
    this.modulus = modulus;
    this.threshold = threshold;
    this.stack = stack;
    this.distanceCounts = distanceCounts;
    this.readDistanceCounts = readDistanceCounts;
    this.totals = totals;
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

  @Override
  public long modulus() {
    return modulus;
  }

  @Override
  public long threshold() {
    return threshold;
  }

  /** The sampling rate {@code R = T / P}. */
  @Override
  public double rate() {
    return rate;
  }

  @Override
  public String method() {
    return METHOD_FIXED_RATE;
  }

  /**
   * Processes one sampled reference, in time order.
   *
   * @param blockHash {@code H(L)} of the 4 KiB block referenced
   * @param write true for a write, false for a read
   */
  @Override
  public void reference(long blockHash, boolean write) {
    long flag = write ? ReuseDistanceStack.WRITE : ReuseDistanceStack.READ;
    long previous = stack.reference(blockHash, flag);
    long flags = 0;
    if (previous != ReuseDistanceStack.FIRST_REFERENCE) {
      int distance = (int) (previous >>> 2);
      distanceCounts = countDistance(distanceCounts, distance);
      if (!write) {
        readDistanceCounts = countDistance(readDistanceCounts, distance);
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
    if (write) {
      writeReferences++;
    } else {
      readReferences++;
    }
    references++;
  }

  @Override
  public void addStreamTotals(long consideredReferences, int hllPrecision, int[] hllUpdates) {
    totals.add(consideredReferences, hllPrecision, hllUpdates);
  }

  @Override
  public int sketchPrecision() {
    return totals.sketchPrecision();
  }

  /** True when every batch brought the stream totals (and at least one did): the R' estimate. */
  public boolean hasStreamTotals() {
    return totals.complete();
  }

  /** N: all block references considered, summed over the batches (0 without stream totals). */
  public long consideredReferences() {
    return totals.consideredReferences();
  }

  private static long[] countDistance(long[] counts, int distance) {
    long[] c = distance < counts.length ? counts : Arrays.copyOf(counts, Math.max(distance + 1, 2 * counts.length));
    c[distance]++;
    return c;
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
    return writeReferences;
  }

  /** Distinct sampled blocks. */
  public long distinctBlocks() {
    return stack.size();
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
    return blocks == 0 ? 0 : stack.size() / blocks;
  }

  /**
   * Estimated distinct blocks of the stream: the sketch's estimate (never below the distinct
   * sampled blocks) with stream totals, else distinct sampled blocks / R.
   */
  public double distinctBlocksEstimate() {
    if (!hasStreamTotals()) {
      return stack.size() / rate;
    }
    return rate == 1 ? stack.size() : Math.max(totals.distinctBlocks(), stack.size());
  }

  @Override
  public long workingSetBytes() {
    return Math.round(distinctBlocksEstimate()) * BLOCK_BYTES;
  }

  @Override
  public long readWorkingSetBytes() {
    return scaleBlocksToBytes(distinctRead);
  }

  @Override
  public long writeWorkingSetBytes() {
    return scaleBlocksToBytes(distinctWrite);
  }

  private long scaleBlocksToBytes(long sampledBlocks) {
    double r = effectiveRate();
    return r == 0 ? 0 : Math.round(sampledBlocks / r) * BLOCK_BYTES;
  }

  /**
   * The estimated MRC at the given cache sizes in one pass over the distance histogram.
   *
   * @param cacheBytes cache sizes in bytes, strictly increasing
   * @throws IllegalStateException when no reference has been processed
   * @throws IllegalArgumentException when the sizes do not increase
   */
  @Override
  public MissRatioCurve missRatioCurve(long[] cacheBytes) {
    if (references == 0) {
      throw new IllegalStateException("no sampled references yet: the MRC is undefined");
    }
    // Expected sampled references: R' N with stream totals (SHARDS_adj), else the sampled ones.
    double expected = hasStreamTotals() ? effectiveRate() * totals.consideredReferences() : references;
    return curve(cacheBytes, distanceCounts, references, expected);
  }

  /** Classic SHARDS over the reads: sampled read misses / sampled reads; empty without reads. */
  @Override
  public Optional<MissRatioCurve> readMissRatioCurve(long[] cacheBytes) {
    return readReferences == 0 ? Optional.empty()
        : Optional.of(curve(cacheBytes, readDistanceCounts, readReferences, readReferences));
  }

  /** {@code (refs - #(distance / R' < c)) / expected} at each size c, in one pass. */
  private MissRatioCurve curve(long[] cacheBytes, long[] counts, long refs, double expected) {
    double scale = effectiveRate();
    double[] missRatios = new double[cacheBytes.length];
    long hits = 0;
    int distance = 0;
    for (int i = 0; i < cacheBytes.length; i++) {
      // A reference hits a cache of c blocks when distance / R' < c, i.e. distance < c * R'.
      double limit = (double) cacheBytes[i] / BLOCK_BYTES * scale;
      while (distance < counts.length && distance < limit) {
        hits += counts[distance++];
      }
      missRatios[i] = Math.min(1.0, (refs - hits) / expected);
    }
    return new MissRatioCurve(cacheBytes, missRatios);
  }

  @Override
  public ShardsFixedRate copy() {
    ShardsFixedRate c = new ShardsFixedRate(modulus, threshold, stack.copy(), distanceCounts.clone(),
        readDistanceCounts.clone(), totals.copy());
    c.references = references;
    c.readReferences = readReferences;
    c.writeReferences = writeReferences;
    c.distinctRead = distinctRead;
    c.distinctWrite = distinctWrite;
    return c;
  }

  @Override
  public long stateBytes() {
    return 4 + 16 + 24 + 8 + 8L * (used(distanceCounts) + used(readDistanceCounts))
        + ReuseDistanceStack.serializedBytes(stack.size())
        + totals.serializedBytes();
  }

  /**
   * Writes the state: format version, sampling parameters, counters, the distance histogram, the
   * LRU stack and the stream totals.
   */
  @Override
  public void writeTo(DataOutputView out) throws IOException {
    out.writeInt(STATE_FORMAT);
    out.writeLong(modulus);
    out.writeLong(threshold);
    out.writeLong(references);
    out.writeLong(readReferences);
    out.writeLong(writeReferences);
    writeCounts(out, distanceCounts);
    writeCounts(out, readDistanceCounts);
    stack.writeTo(out);
    totals.writeTo(out);
  }

  private static int used(long[] counts) {
    int used = counts.length;
    while (used > 0 && counts[used - 1] == 0) {
      used--;
    }
    return used;
  }

  private static void writeCounts(DataOutputView out, long[] counts) throws IOException {
    int used = used(counts);
    out.writeInt(used);
    for (int d = 0; d < used; d++) {
      out.writeLong(counts[d]);
    }
  }

  private static long[] readCounts(DataInputView in) throws IOException {
    int used = in.readInt();
    if (used < 0) {
      throw new IOException("inconsistent SHARDS state: histogram length " + used);
    }
    long[] counts = new long[Math.max(16, used)];
    for (int d = 0; d < used; d++) {
      counts[d] = in.readLong();
    }
    return counts;
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
    long[] distanceCounts = readCounts(in);
    long[] readDistanceCounts = readCounts(in);
    ReuseDistanceStack stack = ReuseDistanceStack.readFrom(in);
    StreamTotals totals = StreamTotals.readFrom(in);
    ShardsFixedRate s;
    try {
      s = new ShardsFixedRate(modulus, threshold, stack, distanceCounts, readDistanceCounts, totals);
    } catch (IllegalArgumentException e) {
      throw new IOException("inconsistent SHARDS state: " + e.getMessage(), e);
    }
    s.references = references;
    s.readReferences = readReferences;
    s.writeReferences = writeReferences;
    s.distinctRead = stack.count(ReuseDistanceStack.READ);
    s.distinctWrite = stack.count(ReuseDistanceStack.WRITE);
    return s;
  }
}
