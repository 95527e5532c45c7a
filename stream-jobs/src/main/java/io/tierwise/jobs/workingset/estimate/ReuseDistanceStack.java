package io.tierwise.jobs.workingset.estimate;

import it.unimi.dsi.fastutil.longs.Long2LongMap;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;
import java.io.IOException;
import java.util.Arrays;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The LRU stack of the sampled blocks: gives each re-reference its stack distance (the number of
 * distinct blocks referenced since the previous reference to the same block; Mattson et al., IBM
 * Systems Journal 9(2), 1970) in O(log n), as in Bennett and Kruskal, "LRU stack processing", IBM
 * J. R&amp;D 19(4), 1975.
 *
 * <p>Each reference gets the next logical time; a map holds each block's last access time and two
 * flag bits (read, written), and a Fenwick tree ({@link FenwickTree}) holds one mark per block at
 * that time. The distance of a re-reference is the number of marks after the block's previous
 * time. When the time counter reaches the tree's capacity the live times are renumbered 0..n-1
 * (order kept) into a tree of capacity 2n, so memory is proportional to the blocks held, not to
 * the references: 16 bytes per block in the map (plus the open-addressing slack) and 8 in the
 * tree. Blocks can be removed (fixed-size SHARDS evicts them). Not thread-safe.
 */
final class ReuseDistanceStack {
  /** Flag of a block read at least once. */
  static final long READ = 1;
  /** Flag of a block written at least once. */
  static final long WRITE = 2;
  /** {@link #reference}'s answer for a block not held before. */
  static final long FIRST_REFERENCE = -1;

  /**
   * The tree's first capacity: small, because most volumes of a fleet sample few blocks (a
   * volume's 13 estimators each hold a stack, WindowedEstimators) and the tree doubles as it fills.
   */
  private static final int MIN_CAPACITY = 64;
  private static final int FLAG_BITS = 2;
  private static final long FLAGS = READ | WRITE;

  /** Block key -> (last access time << 2) | flags. */
  private final Long2LongOpenHashMap lastAccess;
  private FenwickTree live;
  private int clock;

  /** An empty stack. */
  ReuseDistanceStack() {
    this(new Long2LongOpenHashMap(), new FenwickTree(MIN_CAPACITY), 0);
  }

  private ReuseDistanceStack(Long2LongOpenHashMap lastAccess, FenwickTree live, int clock) {
    this.lastAccess = lastAccess;
    this.lastAccess.defaultReturnValue(FIRST_REFERENCE);
    this.live = live;
    this.clock = clock;
  }

  /**
   * References block {@code key} now, with {@code flag} ({@link #READ} or {@link #WRITE}).
   *
   * @return {@link #FIRST_REFERENCE} when the block was not held, else {@code (distance << 2) |
   *     flags before this reference}
   */
  long reference(long key, long flag) {
    if (clock == live.capacity()) {
      compact();
    }
    long previous = lastAccess.get(key);
    long flags = flag;
    long answer = FIRST_REFERENCE;
    if (previous != FIRST_REFERENCE) {
      int previousTime = (int) (previous >>> FLAG_BITS);
      long distance = lastAccess.size() - live.prefixSum(previousTime);
      live.add(previousTime, -1);
      answer = (distance << FLAG_BITS) | (previous & FLAGS);
      flags |= previous & FLAGS;
    }
    live.add(clock, 1);
    lastAccess.put(key, ((long) clock << FLAG_BITS) | flags);
    clock++;
    return answer;
  }

  /** Removes a held block; returns its flags, or {@link #FIRST_REFERENCE} when it was not held. */
  long remove(long key) {
    long previous = lastAccess.remove(key);
    if (previous == FIRST_REFERENCE) {
      return FIRST_REFERENCE;
    }
    live.add((int) (previous >>> FLAG_BITS), -1);
    return previous & FLAGS;
  }

  /** Blocks held. */
  int size() {
    return lastAccess.size();
  }

  /** Blocks held with {@code flag} set. */
  long count(long flag) {
    long n = 0;
    for (long v : lastAccess.values()) {
      n += (v & flag) != 0 ? 1 : 0;
    }
    return n;
  }

  /** The keys of the blocks held (a copy, in no particular order). */
  long[] keys() {
    return lastAccess.keySet().toLongArray();
  }

  /** An independent deep copy. */
  ReuseDistanceStack copy() {
    return new ReuseDistanceStack(new Long2LongOpenHashMap(lastAccess), live.copy(), clock);
  }

  /** Renumbers the live last-access times 0..n-1 in order and sizes the tree to 2n. */
  private void compact() {
    int n = lastAccess.size();
    long[] keys = new long[n];
    long[] values = new long[n];
    long[] timeThenIndex = new long[n];
    int i = 0;
    for (Long2LongMap.Entry e : lastAccess.long2LongEntrySet()) {
      keys[i] = e.getLongKey();
      values[i] = e.getLongValue();
      timeThenIndex[i] = ((values[i] >>> FLAG_BITS) << 32) | i;
      i++;
    }
    Arrays.sort(timeThenIndex);
    int[] times = new int[n];
    for (int t = 0; t < n; t++) {
      int k = (int) timeThenIndex[t];
      lastAccess.put(keys[k], ((long) t << FLAG_BITS) | (values[k] & FLAGS));
      times[t] = t;
    }
    live = FenwickTree.withMarks(Math.max(MIN_CAPACITY, 2 * n), times);
    clock = n;
  }

  /** Writes clock, tree capacity and the (key, last access) pairs; the tree is rebuilt on read. */
  void writeTo(DataOutputView out) throws IOException {
    out.writeInt(clock);
    out.writeInt(live.capacity());
    out.writeInt(lastAccess.size());
    for (Long2LongMap.Entry e : lastAccess.long2LongEntrySet()) {
      out.writeLong(e.getLongKey());
      out.writeLong(e.getLongValue());
    }
  }

  /**
   * Reads a stack written by {@link #writeTo}.
   *
   * @throws IOException on a read error or an inconsistent state
   */
  static ReuseDistanceStack readFrom(DataInputView in) throws IOException {
    int clock = in.readInt();
    int capacity = in.readInt();
    int blocks = in.readInt();
    if (capacity < 1 || clock > capacity || blocks > clock || blocks < 0) {
      throw new IOException("inconsistent LRU stack state: clock " + clock + ", capacity " + capacity
          + ", blocks " + blocks);
    }
    Long2LongOpenHashMap lastAccess = new Long2LongOpenHashMap(blocks);
    int[] times = new int[blocks];
    for (int i = 0; i < blocks; i++) {
      long key = in.readLong();
      long value = in.readLong();
      lastAccess.put(key, value);
      times[i] = (int) (value >>> FLAG_BITS);
    }
    try {
      return new ReuseDistanceStack(lastAccess, FenwickTree.withMarks(capacity, times), clock);
    } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
      throw new IOException("inconsistent LRU stack state: " + e.getMessage(), e);
    }
  }

  /** Bytes of {@link #writeTo} for a stack of {@code blocks} blocks. */
  static long serializedBytes(int blocks) {
    return 12 + 16L * blocks;
  }
}
