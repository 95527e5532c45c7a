package io.tierwise.jobs.workingset.estimate.eviction;

import static io.tierwise.jobs.workingset.estimate.eviction.EntryPool.NONE;

import java.io.IOException;
import java.util.function.LongPredicate;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * What every policy's cache shares: the entries in an {@link EntryPool} whose queues
 * {@code 0..residentQueues-1} hold resident blocks and the others ghost entries, and the engine's
 * miss sequence (edge-agent/src/cache/tier_index.cpp, {@code TierIndex::insert}): the policy's
 * {@code on_miss}, then {@code evict} only when the cache holds {@code capacity} blocks, then
 * {@code on_insert}.
 */
abstract class QueueCache implements SimulatedCache, Cloneable {
  /** Version of {@link #writeTo}'s layout. */
  static final int STATE_FORMAT = 1;

  private final EvictionPolicy policy;
  private final int residentQueues;
  EntryPool pool;
  int capacity;

  QueueCache(EvictionPolicy policy, int capacityBlocks, int residentQueues, int ghostQueues) {
    this.policy = policy;
    this.capacity = checkCapacity(capacityBlocks);
    this.residentQueues = residentQueues;
    this.pool = new EntryPool(residentQueues + ghostQueues);
  }

  /**
   * Sets the policy's derived sizes for {@link #capacity} and bounds the pool's growth at the
   * capacity plus the ghost bounds: each policy's constructor ends with it, {@link #resize} calls it.
   */
  final void sizeQueues() {
    applyCapacity();
    pool.limit((int) Math.min(Integer.MAX_VALUE, maxEntries()));
  }

  /** The most resident and ghost entries the policy holds at once: the capacity plus the ghost bounds. */
  long maxEntries() {
    long entries = capacity;
    for (int q = residentQueues; q < queueCount(); q++) {
      entries += ghostCapacity(q);
    }
    return entries;
  }

  /** A hit on the resident entry {@code node}. */
  abstract void onHit(int node);

  /**
   * A miss; {@code ghost} is the block's ghost entry ({@link EntryPool#NONE} when it has none),
   * which the policy takes out of its ghost queue here.
   */
  abstract void onMiss(int ghost);

  /**
   * The cache is full: evicts the policy's victim (a ghost entry where the policy keeps them); does
   * nothing when no block is resident.
   */
  abstract void evict();

  /** Admits {@code block} after {@link #onMiss} and {@link #evict}. */
  abstract void onInsert(long block);

  /** Recomputes the policy's derived sizes from {@link #capacity} as the constructor does. */
  abstract void applyCapacity();

  /**
   * Clears what a miss hands to the eviction and insertion that follow it (ghost-hit flags, ARC's
   * miss case), so that {@link #resize}'s evictions are those of a miss on a block never seen.
   */
  void clearMissState() {}

  /** The bound of ghost queue {@code queue}. */
  int ghostCapacity(int queue) {
    throw new IllegalStateException("no ghost queue " + queue);
  }

  /** The largest per-entry byte the policy uses (a state check on read). */
  int maxBits() {
    return 0;
  }

  /** The pool renumbered its nodes: node {@code i} is now {@code renumbered[i]}. */
  void renumbered(int[] renumbered) {}

  /** Called before {@link #removeIf} forgets {@code node}. */
  void beforeForget(int node) {}

  /** Writes the policy's scalars after the entries. */
  void writeScalars(DataOutputView out) throws IOException {}

  /** Bytes {@link #writeScalars} writes. */
  int scalarBytes() {
    return 0;
  }

  /** Reads what {@link #writeScalars} wrote, the entries restored. */
  void readScalars(DataInputView in) throws IOException {}

  @Override
  public final EvictionPolicy policy() {
    return policy;
  }

  @Override
  public final boolean access(long block) {
    int node = pool.find(block);
    if (node != NONE && pool.queue(node) < residentQueues) {
      onHit(node);
      return true;
    }
    onMiss(node);
    if (size() >= capacity) {
      evict();
    }
    onInsert(block);
    return false;
  }

  @Override
  public final int capacity() {
    return capacity;
  }

  @Override
  public final int size() {
    int n = 0;
    for (int q = 0; q < residentQueues; q++) {
      n += pool.size(q);
    }
    return n;
  }

  @Override
  public final void resize(int capacityBlocks) {
    capacity = checkCapacity(capacityBlocks);
    sizeQueues();
    for (int q = residentQueues; q < queueCount(); q++) {
      while (pool.size(q) > ghostCapacity(q)) {
        pool.delete(pool.oldest(q));
      }
    }
    clearMissState();
    for (int n = size(); n > capacity; n = size()) {
      evict();
      if (size() >= n) {
        throw new IllegalStateException(policy + " evicted nothing from " + n + " blocks");
      }
    }
    if (pool.oversized()) {
      renumbered(pool.compact());
    }
  }

  @Override
  public final void removeIf(LongPredicate drop) {
    for (int q = 0; q < queueCount(); q++) {
      for (int node = pool.oldest(q); node != NONE; ) {
        int next = pool.newer(node);
        if (drop.test(pool.block(node))) {
          beforeForget(node);
          pool.delete(node);
        }
        node = next;
      }
    }
  }

  @Override
  public final long stateBytes() {
    return pool.heldBytes();
  }

  @Override
  public final SimulatedCache copy() {
    return copyWith(pool.copy());
  }

  /** A copy of this cache's scalars over {@code poolCopy}. */
  private QueueCache copyWith(EntryPool poolCopy) {
    try {
      QueueCache c = (QueueCache) clone();
      c.pool = poolCopy;
      return c;
    } catch (CloneNotSupportedException e) {
      throw new AssertionError(e);
    }
  }

  /** {@link SimulatedCache#share}. */
  static void share(SimulatedCache[] caches) {
    BlockIndex index = new BlockIndex(caches.length);
    for (int i = 0; i < caches.length; i++) {
      ((QueueCache) caches[i]).pool.join(index, i);
    }
  }

  /** {@link SimulatedCache#copyAll}. */
  static SimulatedCache[] copyAll(SimulatedCache[] caches) {
    SimulatedCache[] copies = new SimulatedCache[caches.length];
    BlockIndex index = caches.length == 0 ? null : ((QueueCache) caches[0]).pool.index();
    boolean shared = index != null && index.columns() == caches.length;
    for (SimulatedCache cache : caches) {
      shared &= ((QueueCache) cache).pool.index() == index;
    }
    if (!shared) {
      for (int i = 0; i < caches.length; i++) {
        copies[i] = caches[i].copy();
      }
      return copies;
    }
    BlockIndex indexCopy = index.copy();
    for (int i = 0; i < caches.length; i++) {
      QueueCache c = (QueueCache) caches[i];
      copies[i] = c.copyWith(c.pool.copy(indexCopy));
    }
    return copies;
  }

  /**
   * Moves the just-evicted resident entry {@code node} to the front of ghost queue {@code queue}, as
   * the engine's {@code GhostList::push}: when the queue holds its bound, its oldest entry is dropped
   * first; a bound of 0 keeps nothing.
   */
  final void retire(int node, int queue) {
    int bound = ghostCapacity(queue);
    if (bound == 0) {
      pool.delete(node);
      return;
    }
    if (pool.size(queue) >= bound) {
      pool.delete(pool.oldest(queue));
    }
    pool.moveToFront(node, queue);
  }

  /** Takes a missed block's ghost entry out of its queue; true when there was one (a ghost hit). */
  final boolean forgetGhost(int ghost) {
    if (ghost == NONE) {
      return false;
    }
    pool.delete(ghost);
    return true;
  }

  /** Whether {@code block} is resident (not a ghost entry); for tests. */
  final boolean holds(long block) {
    int node = pool.find(block);
    return node != NONE && pool.queue(node) < residentQueues;
  }

  /** Resident and ghost entries. */
  final int entries() {
    return pool.entries();
  }

  /** Entries in {@code queue} (the policy's queue constants), for tests. */
  final int queueSize(int queue) {
    return pool.size(queue);
  }

  /** The queue holding {@code block} as a resident or ghost entry, or {@link EntryPool#NONE}; for tests. */
  final int queueOf(long block) {
    int node = pool.find(block);
    return node == NONE ? NONE : pool.queue(node);
  }

  /** Drops the oldest entry of {@code queue} ({@code GhostList::pop_oldest}); no-op when empty. */
  final void dropOldest(int queue) {
    int node = pool.oldest(queue);
    if (node != NONE) {
      pool.delete(node);
    }
  }

  @Override
  public final long serializedBytes() {
    long bytes = Integer.BYTES + 2 + policy.wireName().length() + Integer.BYTES + scalarBytes();
    for (int q = 0; q < queueCount(); q++) {
      bytes += Integer.BYTES + (long) pool.size(q) * (Long.BYTES + 1);
    }
    return bytes;
  }

  @Override
  public final void writeTo(DataOutputView out) throws IOException {
    out.writeInt(STATE_FORMAT);
    out.writeUTF(policy.wireName());
    out.writeInt(capacity);
    for (int q = 0; q < queueCount(); q++) {
      out.writeInt(pool.size(q));
      for (int node = pool.oldest(q); node != NONE; node = pool.newer(node)) {
        out.writeLong(pool.block(node));
        out.writeByte(pool.bits(node));
      }
    }
    writeScalars(out);
  }

  static SimulatedCache read(DataInputView in) throws IOException {
    int format = in.readInt();
    if (format != STATE_FORMAT) {
      throw new IOException("simulated cache state format " + format + " is not " + STATE_FORMAT
          + " (state from another version of the job)");
    }
    QueueCache c;
    try {
      c = (QueueCache) EvictionPolicy.parse(in.readUTF()).newCache(in.readInt());
    } catch (IllegalArgumentException e) {
      throw new IOException("inconsistent simulated cache state: " + e.getMessage(), e);
    }
    for (int q = 0; q < c.queueCount(); q++) {
      int n = in.readInt();
      int bound = q < c.residentQueues ? c.capacity - c.size() : c.ghostCapacity(q);
      if (n < 0 || n > bound) {
        throw new IOException("inconsistent " + c.policy + " state: queue " + q + " holds " + n
            + " entries, at most " + bound + " allowed");
      }
      for (int i = 0; i < n; i++) {
        long block = in.readLong();
        int bits = in.readByte();
        if (c.pool.find(block) != NONE || bits < 0 || bits > c.maxBits()) {
          throw new IOException("inconsistent " + c.policy + " state: entry " + block + " (byte " + bits
              + ") is a duplicate or out of range");
        }
        c.pool.setBits(c.pool.add(q, block), bits);
      }
    }
    c.readScalars(in);
    return c;
  }

  private int queueCount() {
    return pool.queueCount();
  }

  private static int checkCapacity(int capacityBlocks) {
    if (capacityBlocks < 1) {
      throw new IllegalArgumentException("capacity " + capacityBlocks + " blocks: at least 1 needed");
    }
    return capacityBlocks;
  }
}
