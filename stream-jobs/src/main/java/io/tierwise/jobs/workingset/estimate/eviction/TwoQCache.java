package io.tierwise.jobs.workingset.estimate.eviction;

import static io.tierwise.jobs.workingset.estimate.eviction.EntryPool.NONE;

/**
 * 2Q (Johnson and Shasha, "2Q: A Low Overhead High Performance Buffer Management Replacement
 * Algorithm", VLDB 1994, full version, section 2.2), with the paper's recommended Kin and Kout.
 * Mirrors edge-agent/src/cache/eviction/two_q_policy.cpp.
 *
 * <p>A1in, a FIFO of blocks seen once, bounded by {@code Kin = (int) (capacity * 0.25)}; A1out, a
 * FIFO of at most {@code Kout = (int) (capacity * 0.50)} ids evicted from A1in; Am, an LRU list. A
 * hit in Am moves the block to Am's front, a hit in A1in does nothing (correlated references). A
 * miss found in A1out enters Am, any other A1in. Eviction takes A1in's oldest block (into A1out)
 * when A1in is not empty and holds more than Kin or Am is empty, else Am's least recent block.
 */
final class TwoQCache extends QueueCache {
  static final double IN_FRACTION = 0.25;
  static final double OUT_FRACTION = 0.50;
  static final int A1IN = 0;
  static final int AM = 1;
  static final int A1OUT = 2;

  private int kIn;
  private int kOut;
  private boolean ghostHit;

  TwoQCache(int capacityBlocks) {
    super(EvictionPolicy.TWO_Q, capacityBlocks, 2, 1);
    sizeQueues();
  }

  @Override
  void applyCapacity() {
    kIn = (int) (capacity * IN_FRACTION);
    kOut = (int) (capacity * OUT_FRACTION);
  }

  @Override
  int ghostCapacity(int queue) {
    return kOut;
  }

  @Override
  void clearMissState() {
    ghostHit = false;
  }

  @Override
  void onHit(int node) {
    if (pool.queue(node) == AM) {
      pool.moveToFront(node, AM);
    }
  }

  @Override
  void onMiss(int ghost) {
    ghostHit = forgetGhost(ghost);
  }

  @Override
  void evict() {
    boolean fromA1in = pool.size(A1IN) > 0 && (pool.size(A1IN) > kIn || pool.size(AM) == 0);
    int victim = pool.oldest(fromA1in ? A1IN : AM);
    if (victim == NONE) {
      return;
    }
    if (fromA1in) {
      retire(victim, A1OUT);
    } else {
      pool.delete(victim);
    }
  }

  @Override
  void onInsert(long block) {
    pool.add(ghostHit ? AM : A1IN, block);
    ghostHit = false;
  }

  int kIn() {
    return kIn;
  }

  int kOut() {
    return kOut;
  }
}
