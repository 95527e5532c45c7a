package io.tierwise.jobs.workingset.estimate.eviction;

import static io.tierwise.jobs.workingset.estimate.eviction.EntryPool.NONE;

import java.io.IOException;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * SIEVE (Zhang, Yang, Yue, Vigfusson and Rashmi, "SIEVE is Simpler than LRU: an Efficient Turn-Key
 * Eviction Algorithm for Web Caches", NSDI 2024, Algorithm 1). Mirrors
 * edge-agent/src/cache/eviction/sieve_policy.cpp.
 *
 * <p>One FIFO queue (front = newest, back = oldest), a visited bit per block and a hand (an entry
 * or unset); no ghost entries. A new block enters at the front with visited = 0; a hit sets
 * visited = 1 and moves nothing. Eviction starts at the hand, or at the back when unset; while the
 * block there is visited, its bit is cleared and the hand moves one step towards the front,
 * wrapping past the front to the back; the first unvisited block is the victim, and the hand moves
 * one step towards the front before it leaves (unset when the victim was the front). A forgotten
 * block under the hand moves the hand the same way.
 */
final class SieveCache extends QueueCache {
  private static final int QUEUE = 0;

  private int hand = NONE;

  SieveCache(int capacityBlocks) {
    super(EvictionPolicy.SIEVE, capacityBlocks, 1, 0);
    sizeQueues();
  }

  @Override
  void applyCapacity() {}

  @Override
  int maxBits() {
    return 1;
  }

  @Override
  void onHit(int node) {
    pool.setBits(node, 1);
  }

  @Override
  void onMiss(int ghost) {}

  @Override
  void evict() {
    if (pool.size(QUEUE) == 0) {
      return;
    }
    int victim = hand != NONE ? hand : pool.oldest(QUEUE);
    while (pool.bits(victim) != 0) {
      pool.setBits(victim, 0);
      int next = pool.newer(victim);
      victim = next != NONE ? next : pool.oldest(QUEUE);
    }
    hand = pool.newer(victim);
    pool.delete(victim);
  }

  @Override
  void onInsert(long block) {
    pool.add(QUEUE, block);
  }

  @Override
  void renumbered(int[] renumbered) {
    if (hand != NONE) {
      hand = renumbered[hand];
    }
  }

  @Override
  void beforeForget(int node) {
    if (node == hand) {
      hand = pool.newer(node);
    }
  }

  /** The hand as its position from the back (0 = the oldest block), or -1 when unset. */
  @Override
  void writeScalars(DataOutputView out) throws IOException {
    out.writeInt(handPosition());
  }

  @Override
  int scalarBytes() {
    return Integer.BYTES;
  }

  @Override
  void readScalars(DataInputView in) throws IOException {
    int position = in.readInt();
    if (position < -1 || position >= pool.size(QUEUE)) {
      throw new IOException("inconsistent sieve state: hand at " + position + " of " + pool.size(QUEUE));
    }
    hand = NONE;
    if (position >= 0) {
      hand = pool.oldest(QUEUE);
      for (int i = 0; i < position; i++) {
        hand = pool.newer(hand);
      }
    }
  }

  /** The hand's position from the back (0 = the oldest block), or -1 when unset. */
  int handPosition() {
    if (hand == NONE) {
      return -1;
    }
    int position = 0;
    for (int node = pool.oldest(QUEUE); node != hand; node = pool.newer(node)) {
      position++;
    }
    return position;
  }

  /** The block under the hand; meaningful only when {@link #handPosition} is not -1. */
  long handBlock() {
    return pool.block(hand);
  }

  /** Whether resident {@code block} is visited; false when absent. */
  boolean visited(long block) {
    int node = pool.find(block);
    return node != NONE && pool.bits(node) != 0;
  }

  /** Resident blocks oldest first. */
  long[] order() {
    long[] out = new long[pool.size(QUEUE)];
    int i = 0;
    for (int node = pool.oldest(QUEUE); node != NONE; node = pool.newer(node)) {
      out[i++] = pool.block(node);
    }
    return out;
  }
}
