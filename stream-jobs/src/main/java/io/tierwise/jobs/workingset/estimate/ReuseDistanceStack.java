package io.tierwise.jobs.workingset.estimate;

import it.unimi.dsi.fastutil.longs.Long2LongMap;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;
import it.unimi.dsi.fastutil.objects.ObjectIterator;
import java.io.IOException;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The LRU stack of the sampled blocks: gives each re-reference its stack distance (the number of
 * distinct blocks referenced since the previous reference to the same block; Mattson et al., IBM
 * Systems Journal 9(2), 1970) in O(log n), as in Bennett and Kruskal, "LRU stack processing", IBM
 * J. R&amp;D 19(4), 1975.
 *
 * <p>Each reference gets the next logical time; a map holds each block's last access time and its
 * <b>marks</b>: the epochs of its last read and its last write ({@link #NO_EPOCH} when never), an
 * epoch being the caller's count of window panes started so far ({@link WindowedEstimators}: a
 * block was read in a pane when its last read's epoch is at least the pane's). A Fenwick tree
 * ({@link FenwickTree}) holds one mark per block at its last access time; the distance of a
 * re-reference is the number of marks after the block's previous time. When the time counter
 * reaches the tree's capacity the live times are renumbered 0..n-1 (order kept) into a tree of
 * capacity 2n, so memory is proportional to the blocks held, not to the references: 16 bytes per
 * block in the map (plus the open-addressing slack) and 8 in the tree. Blocks can be removed
 * (fixed-size SHARDS evicts them).
 *
 * <p>A map value packs the time (high {@value #TIME_BITS} bits) and the marks (read epoch + 1,
 * write epoch + 1, {@value #EPOCH_BITS} bits each): at most 2^{@value #TIME_BITS}/2 blocks held
 * and epochs below {@link #MAX_EPOCH} (a stream with panes of 1 h starts about 100 a day).
 * Not thread-safe.
 */
final class ReuseDistanceStack {
  /** Flag of a block read at least once. */
  static final long READ = 1;
  /** Flag of a block written at least once. */
  static final long WRITE = 2;
  /** {@link #reference}'s answer for a block not held before. */
  static final long FIRST_REFERENCE = -1;
  /** The epoch of a read or a write that never happened. */
  static final int NO_EPOCH = -1;
  /** Bits of each epoch in a map value. */
  static final int EPOCH_BITS = 20;
  /** Epochs are clipped to this ({@code 2^20 - 2}). */
  static final int MAX_EPOCH = (1 << EPOCH_BITS) - 2;
  /** Bits of the logical time in a map value. */
  static final int TIME_BITS = 64 - 2 * EPOCH_BITS;

  /**
   * The tree's first capacity: small, because most volumes of a fleet sample few blocks and the
   * tree doubles as it fills.
   */
  private static final int MIN_CAPACITY = 64;
  private static final int MAX_CAPACITY = 1 << TIME_BITS;
  private static final long EPOCH_MASK = (1L << EPOCH_BITS) - 1;
  private static final long MARKS = (1L << (2 * EPOCH_BITS)) - 1;

  /** Block key -> (last access time << 40) | marks. */
  private final Long2LongOpenHashMap lastAccess;
  private FenwickTree live;
  private int clock;
  /** The marks of the block {@link #reference} was last called for, before that reference (0: none). */
  private long previousMarks;

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
   * References block {@code key} now, with {@code flag} ({@link #READ} or {@link #WRITE}), in
   * {@code epoch} (clipped to {@link #MAX_EPOCH}); the block's marks before it are then
   * {@link #previousMarks}.
   *
   * @return {@link #FIRST_REFERENCE} when the block was not held, else {@code (distance << 2) |
   *     flags before this reference}
   * @throws IllegalStateException when the stack would hold more than 2^{@value #TIME_BITS}/2 blocks
   */
  long reference(long key, long flag, int epoch) {
    if (clock == live.capacity()) {
      compact();
    }
    long previous = lastAccess.get(key);
    long marks = 0;
    long answer = FIRST_REFERENCE;
    if (previous != FIRST_REFERENCE) {
      int previousTime = (int) (previous >>> (2 * EPOCH_BITS));
      long distance = lastAccess.size() - live.prefixSum(previousTime);
      live.add(previousTime, -1);
      marks = previous & MARKS;
      answer = (distance << 2) | flags(marks);
    }
    previousMarks = marks;
    long field = Math.min(Math.max(epoch, 0), MAX_EPOCH) + 1L;
    marks = flag == WRITE ? (marks & ~EPOCH_MASK) | field : (marks & EPOCH_MASK) | (field << EPOCH_BITS);
    live.add(clock, 1);
    lastAccess.put(key, ((long) clock << (2 * EPOCH_BITS)) | marks);
    clock++;
    return answer;
  }

  /** The marks of the block last referenced, before that reference: 0 for a first reference. */
  long previousMarks() {
    return previousMarks;
  }

  /** {@link #READ} and {@link #WRITE} of a block's marks. */
  static long flags(long marks) {
    return ((marks >>> EPOCH_BITS) & EPOCH_MASK) != 0 ? READ | writeFlag(marks) : writeFlag(marks);
  }

  private static long writeFlag(long marks) {
    return (marks & EPOCH_MASK) != 0 ? WRITE : 0;
  }

  /** The epoch of the last read in {@code marks}, {@link #NO_EPOCH} when never read. */
  static int readEpoch(long marks) {
    return (int) ((marks >>> EPOCH_BITS) & EPOCH_MASK) - 1;
  }

  /** The epoch of the last write in {@code marks}, {@link #NO_EPOCH} when never written. */
  static int writeEpoch(long marks) {
    return (int) (marks & EPOCH_MASK) - 1;
  }

  /** The epoch of the last reference in {@code marks}, {@link #NO_EPOCH} when none. */
  static int accessEpoch(long marks) {
    return Math.max(readEpoch(marks), writeEpoch(marks));
  }

  /** Removes a held block; returns its marks, or {@link #FIRST_REFERENCE} when it was not held. */
  long remove(long key) {
    long previous = lastAccess.remove(key);
    if (previous == FIRST_REFERENCE) {
      return FIRST_REFERENCE;
    }
    live.add((int) (previous >>> (2 * EPOCH_BITS)), -1);
    return previous & MARKS;
  }

  /** Blocks held. */
  int size() {
    return lastAccess.size();
  }

  /** Blocks held with {@code flag} set. */
  long count(long flag) {
    long n = 0;
    for (long v : lastAccess.values()) {
      n += (flags(v & MARKS) & flag) != 0 ? 1 : 0;
    }
    return n;
  }

  /** The keys of the blocks held (a copy, in no particular order). */
  long[] keys() {
    return lastAccess.keySet().toLongArray();
  }

  /** An independent deep copy. */
  ReuseDistanceStack copy() {
    ReuseDistanceStack c = new ReuseDistanceStack(new Long2LongOpenHashMap(lastAccess), live.copy(), clock);
    c.previousMarks = previousMarks;
    return c;
  }

  /**
   * Renumbers the live last-access times 0..n-1 in order and sizes the tree to 2n, in O(n): a
   * block's new time is the number of live times before its own, read from the tree's prefix sums.
   */
  private void compact() {
    int n = lastAccess.size();
    if (2L * n > MAX_CAPACITY) {
      throw new IllegalStateException("an LRU stack holds at most " + MAX_CAPACITY / 2 + " sampled blocks");
    }
    int[] liveUpTo = live.prefixSums();
    ObjectIterator<Long2LongMap.Entry> it = lastAccess.long2LongEntrySet().fastIterator();
    while (it.hasNext()) {
      Long2LongMap.Entry e = it.next();
      long value = e.getLongValue();
      long time = liveUpTo[(int) (value >>> (2 * EPOCH_BITS))] - 1L;
      e.setValue((time << (2 * EPOCH_BITS)) | (value & MARKS));
    }
    live = FenwickTree.withFirstMarked(Math.min(MAX_CAPACITY, Math.max(MIN_CAPACITY, 2 * n)), n);
    clock = n;
  }

  /** Writes clock, tree capacity and the (key, time and marks) pairs; the tree is rebuilt on read. */
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
   * Reads a stack written by {@link #writeTo}, or by the layout before the marks ({@code
   * flagsOnly}: {@code (time << 2) | flags}, read as epoch 0).
   *
   * @throws IOException on a read error or an inconsistent state
   */
  static ReuseDistanceStack readFrom(DataInputView in, boolean flagsOnly) throws IOException {
    int clock = in.readInt();
    int capacity = in.readInt();
    int blocks = in.readInt();
    if (capacity < 1 || capacity > MAX_CAPACITY || clock > capacity || blocks > clock || blocks < 0) {
      throw new IOException("inconsistent LRU stack state: clock " + clock + ", capacity " + capacity
          + ", blocks " + blocks);
    }
    Long2LongOpenHashMap lastAccess = new Long2LongOpenHashMap(blocks);
    int[] times = new int[blocks];
    for (int i = 0; i < blocks; i++) {
      long key = in.readLong();
      long value = in.readLong();
      if (flagsOnly) {
        long marks = ((value & READ) != 0 ? 1L << EPOCH_BITS : 0) | ((value & WRITE) != 0 ? 1 : 0);
        value = ((value >>> 2) << (2 * EPOCH_BITS)) | marks;
      }
      lastAccess.put(key, value);
      times[i] = (int) (value >>> (2 * EPOCH_BITS));
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
