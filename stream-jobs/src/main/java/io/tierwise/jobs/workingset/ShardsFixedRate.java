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
 * <p>The SHARDS_adj correction (section 3.2) needs the count of all (unsampled) references, which
 * the agent does not send; miss ratios are normalised by the sampled reference count.
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

  /** Estimated working set size: distinct sampled blocks / R x 4096, bytes. */
  public long workingSetBytes() {
    return scaleBlocksToBytes(lastAccess.size());
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
    return Math.round(sampledBlocks / rate) * BLOCK_BYTES;
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
    double[] missRatios = new double[cacheBytes.length];
    long hits = 0;
    int distance = 0;
    for (int i = 0; i < cacheBytes.length; i++) {
      // A reference hits a cache of c blocks when distance / R < c, i.e. distance < c * R.
      double limit = (double) cacheBytes[i] / BLOCK_BYTES * rate;
      while (distance < distanceCounts.length && distance < limit) {
        hits += distanceCounts[distance++];
      }
      missRatios[i] = 1.0 - (double) hits / references;
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
  }

  /**
   * Writes the state: sampling parameters, counters, the distance histogram and the
   * (block hash, last access) pairs. The Fenwick tree is rebuilt on read.
   */
  void writeTo(DataOutputView out) throws IOException {
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
  }

  /**
   * Reads a state written by {@link #writeTo}.
   *
   * @throws IOException on a read error or an inconsistent state
   */
  static ShardsFixedRate readFrom(DataInputView in) throws IOException {
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
    return s;
  }
}
