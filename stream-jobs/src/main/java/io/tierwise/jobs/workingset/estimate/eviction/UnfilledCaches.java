package io.tierwise.jobs.workingset.estimate.eviction;

import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongPredicate;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Every policy's cache of one capacity while none of them has evicted: one table instead of one
 * cache per policy, until {@link #materialize} builds the caches.
 *
 * <p>Every {@link SimulatedCache} evicts only on a miss that finds it holding its capacity (the
 * engine's miss sequence, {@link QueueCache}), and removes no block otherwise. So until the first
 * such miss all policies hold every block referenced, and each reference is a hit for all of them
 * or a miss for all of them: one table of the blocks answers for every policy. What the policies'
 * orders depend on by then is, per block, the time of its first reference (FIFO queues: S3-FIFO's
 * S, 2Q's A1in, SIEVE's queue, ARC's T1), of its last (LRU, ARC's T2, which takes a block at its
 * first hit and moves it to the front at every later one) and how many hits it had, up to
 * S3-FIFO's counter bound {@value S3FifoCache#MAX_FREQUENCY} (SIEVE's visited bit and the hits that
 * move a block from ARC's T1 to T2 need one; 2Q's A1in ignores hits; no policy changes its
 * parameters on a hit: ARC's p moves only on ghost hits, and there are no ghost entries before an
 * eviction). {@link #materialize} replays, per policy, each block's first reference and its hits
 * at the time of its last one: the same resident blocks in the same orders, counters and bits as
 * the references themselves would have left (the caches' {@code writeTo} bytes are equal:
 * {@code UnfilledCachesTest}).
 *
 * <p>Bounded by the capacity: one entry per block, {@value #ENTRY_BYTES} bytes of arrays plus its
 * hash slot. Not thread-safe.
 */
public final class UnfilledCaches {
  /** {@link #access}: a block held, a hit for every policy. */
  public static final int HIT = 0;
  /** {@link #access}: a new block admitted without an eviction, a miss for every policy. */
  public static final int MISS = 1;
  /** {@link #access}: a new block with the caches full: nothing changed; the caller materializes. */
  public static final int FULL = 2;
  /** Bytes per entry of the arrays: block, first and last reference time, hits. */
  static final int ENTRY_BYTES = 3 * Long.BYTES + 1;
  /** Version of {@link #writeTo}'s layout. */
  private static final int STATE_FORMAT = 1;

  private int capacity;
  /** References so far: the time of the next one. */
  private long clock;
  private int size;
  private long[] blocks = new long[0];
  private long[] first = new long[0];
  private long[] last = new long[0];
  private byte[] hits = new byte[0];
  private Long2IntOpenHashMap slots = newIndex(0);

  /**
   * Empty caches of {@code capacityBlocks}.
   *
   * @throws IllegalArgumentException when {@code capacityBlocks < 1}
   */
  public UnfilledCaches(int capacityBlocks) {
    this.capacity = checkCapacity(capacityBlocks);
  }

  /** One reference to {@code block}: {@link #HIT}, {@link #MISS} or {@link #FULL} (then unchanged). */
  public int access(long block) {
    int slot = slots.get(block);
    if (slot >= 0) {
      last[slot] = clock++;
      if (hits[slot] < S3FifoCache.MAX_FREQUENCY) {
        hits[slot]++;
      }
      return HIT;
    }
    if (size >= capacity) {
      return FULL;
    }
    grow();
    blocks[size] = block;
    first[size] = clock;
    last[size] = clock++;
    hits[size] = 0;
    slots.put(block, size++);
    return MISS;
  }

  /** The most blocks the caches hold. */
  public int capacity() {
    return capacity;
  }

  /** Blocks held. */
  public int size() {
    return size;
  }

  /**
   * A new capacity that evicts nothing (a cache grown, or shrunk to at least its blocks), as
   * {@link SimulatedCache#resize} with the blocks all kept.
   *
   * @throws IllegalArgumentException when {@code capacityBlocks < 1} or below {@link #size}: the
   *     policies would evict, each its own victims; materialize first
   */
  public void resize(int capacityBlocks) {
    if (checkCapacity(capacityBlocks) < size) {
      throw new IllegalArgumentException(
          "a capacity of " + capacityBlocks + " blocks below the " + size + " held evicts: materialize first");
    }
    capacity = capacityBlocks;
  }

  /** Forgets every block for which {@code drop.test(block)} is true, as {@link SimulatedCache#removeIf}. */
  public void removeIf(LongPredicate drop) {
    int kept = 0;
    for (int i = 0; i < size; i++) {
      if (!drop.test(blocks[i])) {
        blocks[kept] = blocks[i];
        first[kept] = first[i];
        last[kept] = last[i];
        hits[kept] = hits[i];
        kept++;
      }
    }
    if (kept < size) {
      size = kept;
      reindex();
    }
  }

  /**
   * Each policy's cache at {@link #capacity}, in the state the references so far would have left it
   * in (see the class doc).
   *
   * @throws IllegalStateException when a replayed reference does not hit or miss as it did (a policy
   *     that evicts before it is full)
   */
  public SimulatedCache[] materialize(List<EvictionPolicy> policies) {
    // Events in time order: a block's first reference (even), its hits at its last (odd).
    long[] events = new long[2 * size];
    int n = 0;
    long slotsTimesTwo = 2L * Math.max(1, size);
    for (int i = 0; i < size; i++) {
      events[n++] = first[i] * slotsTimesTwo + 2L * i;
      if (hits[i] > 0) {
        events[n++] = last[i] * slotsTimesTwo + 2L * i + 1;
      }
    }
    Arrays.sort(events, 0, n);
    SimulatedCache[] caches = new SimulatedCache[policies.size()];
    for (int p = 0; p < caches.length; p++) {
      SimulatedCache cache = policies.get(p).newCache(capacity);
      for (int e = 0; e < n; e++) {
        int event = (int) (events[e] % slotsTimesTwo);
        int slot = event / 2;
        boolean hit = (event & 1) == 1;
        for (int h = hit ? hits[slot] : 1; h > 0; h--) {
          if (cache.access(blocks[slot]) != hit) {
            throw new IllegalStateException(cache.policy() + " " + (hit ? "missed" : "hit") + " block "
                + blocks[slot] + " while replaying a cache that never evicted");
          }
        }
      }
      caches[p] = cache;
    }
    return caches;
  }

  /** An independent copy. */
  public UnfilledCaches copy() {
    UnfilledCaches c = new UnfilledCaches(capacity);
    c.clock = clock;
    c.size = size;
    c.blocks = Arrays.copyOf(blocks, size);
    c.first = Arrays.copyOf(first, size);
    c.last = Arrays.copyOf(last, size);
    c.hits = Arrays.copyOf(hits, size);
    c.reindex();
    return c;
  }

  /** Bytes on the heap: the arrays at their length and the hash table (12 bytes per slot), without headers. */
  public long stateBytes() {
    return (long) blocks.length * ENTRY_BYTES + 12L * slots.size() * 4 / 3;
  }

  /** Bytes {@link #writeTo} writes. */
  public long serializedBytes() {
    return Integer.BYTES + Integer.BYTES + Long.BYTES + Integer.BYTES + (long) size * ENTRY_BYTES;
  }

  /** Writes the state: format, capacity, clock, and every block with its first and last reference time and hits. */
  public void writeTo(DataOutputView out) throws IOException {
    out.writeInt(STATE_FORMAT);
    out.writeInt(capacity);
    out.writeLong(clock);
    out.writeInt(size);
    for (int i = 0; i < size; i++) {
      out.writeLong(blocks[i]);
      out.writeLong(first[i]);
      out.writeLong(last[i]);
      out.writeByte(hits[i]);
    }
  }

  /**
   * Reads a state written by {@link #writeTo}.
   *
   * @throws IOException on a read error, another format or an inconsistent state
   */
  public static UnfilledCaches readFrom(DataInputView in) throws IOException {
    int format = in.readInt();
    if (format != STATE_FORMAT) {
      throw new IOException("unfilled caches state format " + format + " is not " + STATE_FORMAT);
    }
    int capacity = in.readInt();
    long clock = in.readLong();
    int size = in.readInt();
    if (capacity < 1 || size < 0 || size > capacity || clock < 0) {
      throw new IOException("inconsistent unfilled caches state: " + size + " of " + capacity + " blocks, clock " + clock);
    }
    UnfilledCaches c = new UnfilledCaches(capacity);
    c.clock = clock;
    c.blocks = new long[size];
    c.first = new long[size];
    c.last = new long[size];
    c.hits = new byte[size];
    for (int i = 0; i < size; i++) {
      c.blocks[i] = in.readLong();
      c.first[i] = in.readLong();
      c.last[i] = in.readLong();
      c.hits[i] = in.readByte();
      if (c.first[i] < 0 || c.last[i] < c.first[i] || c.last[i] >= clock || c.hits[i] < 0
          || c.hits[i] > S3FifoCache.MAX_FREQUENCY || (c.hits[i] == 0) != (c.last[i] == c.first[i])) {
        throw new IOException("inconsistent unfilled caches state: entry " + i);
      }
    }
    c.size = size;
    c.reindex();
    if (c.slots.size() != size) {
      throw new IOException("inconsistent unfilled caches state: a block is held twice");
    }
    return c;
  }

  /** Room for one more entry: the arrays grow by half, up to the capacity. */
  private void grow() {
    if (size < blocks.length) {
      return;
    }
    int length = (int) Math.min(capacity, Math.max(8, blocks.length + (blocks.length >> 1)));
    blocks = Arrays.copyOf(blocks, length);
    first = Arrays.copyOf(first, length);
    last = Arrays.copyOf(last, length);
    hits = Arrays.copyOf(hits, length);
  }

  private void reindex() {
    slots = newIndex(size);
    for (int i = 0; i < size; i++) {
      slots.put(blocks[i], i);
    }
  }

  private static Long2IntOpenHashMap newIndex(int expected) {
    Long2IntOpenHashMap index = new Long2IntOpenHashMap(expected);
    index.defaultReturnValue(-1);
    return index;
  }

  private static int checkCapacity(int capacityBlocks) {
    if (capacityBlocks < 1) {
      throw new IllegalArgumentException("capacity " + capacityBlocks + " blocks: at least 1 needed");
    }
    return capacityBlocks;
  }
}
