package io.tierwise.jobs.workingset.estimate.eviction;

import java.io.IOException;
import java.util.function.LongPredicate;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * A simulated cache of 4 KiB blocks under one {@link EvictionPolicy}: the engine's tier index and
 * policy (edge-agent/src/cache/tier_index.cpp, edge-agent/src/cache/eviction/) without data, slots
 * or pins. Blocks are 64-bit ids (block numbers or their hashes; every value is allowed). Each
 * access is O(1) amortised, as in the engine. Not thread-safe.
 */
public interface SimulatedCache {
  /** The policy this cache runs. */
  EvictionPolicy policy();

  /**
   * One reference to {@code block}. A hit updates the policy's order; a miss admits the block as the
   * engine does: the policy looks the block up in its ghost entries, then, only when the cache holds
   * {@link #capacity} blocks, evicts its victim, then inserts the block.
   *
   * @return true on a hit
   */
  boolean access(long block);

  /** The most blocks the cache holds. */
  int capacity();

  /** Resident blocks (ghost entries not counted). */
  int size();

  /**
   * Sets a new capacity in blocks, larger or smaller. The policy's derived sizes (S3-FIFO's small,
   * main and ghost queue shares, ARC's c and the bound on p, 2Q's Kin and Kout) are recomputed from
   * it as a new cache's would be, ghost lists are trimmed oldest first to their new bounds, and
   * resident blocks are evicted by the policy's own eviction (ghost entries recorded as usual)
   * until {@link #size} is at most the capacity. Growing keeps every block.
   *
   * @throws IllegalArgumentException when {@code capacityBlocks < 1}
   */
  void resize(int capacityBlocks);

  /**
   * Forgets every resident or ghost block for which {@code drop.test(block)} is true, recording no
   * ghost entry (for blocks that leave the sample when the sampling threshold is lowered). A
   * forgotten block misses on its next access and is admitted as a block never seen.
   */
  void removeIf(LongPredicate drop);

  /**
   * Bytes this cache's state holds on the heap: its entry arrays at their allocated length
   * (resident and ghost entries, 22 bytes per entry slot) and its block index (12 bytes per hash
   * table slot, at most three quarters full, and a row of cells per block; an index shared by
   * {@link #share} counted once over its caches), without the JVM's object headers. The arrays grow
   * by half when full, at most to the capacity plus the ghost bounds; a resize that leaves them
   * more than twice that large reallocates them at the size of the entries held.
   */
  long stateBytes();

  /** Bytes {@link #writeTo} writes: the checkpoint cost of this cache. */
  long serializedBytes();

  /** An independent copy in the same state (same future hits and misses), with an index of its own. */
  SimulatedCache copy();

  /**
   * Makes {@code caches} find blocks through one index (one hash lookup per reference for all of
   * them when each reference is given to every cache in turn, as the policies of one miniature size
   * are): their hits and misses do not change. Call it again after resizing them, to reallocate the
   * index for the blocks held.
   *
   * @throws IllegalArgumentException for more than 127 caches
   */
  static void share(SimulatedCache... caches) {
    QueueCache.share(caches);
  }

  /** Independent copies of {@code caches}, sharing one index as they do when they do ({@link #share}). */
  static SimulatedCache[] copyAll(SimulatedCache[] caches) {
    return QueueCache.copyAll(caches);
  }

  /**
   * Writes the state: format, policy, capacity, every queue's entries oldest first (block and the
   * policy's per-entry byte, 9 bytes each) and the policy's own scalars (ARC's p, SIEVE's hand).
   */
  void writeTo(DataOutputView out) throws IOException;

  /**
   * Reads a state written by {@link #writeTo}: the restored cache gives the same hits and misses as
   * the one written.
   *
   * @throws IOException on a read error, a state of another format or an inconsistent state
   */
  static SimulatedCache readFrom(DataInputView in) throws IOException {
    return QueueCache.read(in);
  }
}
