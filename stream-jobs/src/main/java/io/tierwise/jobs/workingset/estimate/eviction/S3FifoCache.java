package io.tierwise.jobs.workingset.estimate.eviction;

/**
 * S3-FIFO (Yang, Zhang, Qiu, Yue and Vinayak, "FIFO queues are all you need for cache eviction",
 * SOSP 2023, Algorithm 1), with libCacheSim's parameters. Mirrors
 * edge-agent/src/cache/eviction/s3fifo_policy.cpp.
 *
 * <p>A small FIFO S of {@code max(1, (int) (capacity * 0.10))} blocks, a main FIFO M of the rest
 * and a ghost FIFO G of {@code (int) (capacity * 0.90)} block ids. Each resident block has a
 * counter capped at 3, 0 on insertion; a hit only increments it. A miss found in G enters M, any
 * other S. Eviction takes from M when M holds more than its share or S is empty (a back entry with
 * a counter above 0 goes to M's front with the counter decremented, until one with 0 leaves), else
 * from S: a back entry with a counter of at least 2 moves to M's front with the counter reset, any
 * other leaves into G. One-hit wonders thus leave from S without entering M.
 */
final class S3FifoCache extends QueueCache {
  static final double SMALL_FRACTION = 0.10;
  static final double GHOST_FRACTION = 0.90;
  static final int MOVE_TO_MAIN_THRESHOLD = 2;
  static final int MAX_FREQUENCY = 3;
  static final int SMALL = 0;
  static final int MAIN = 1;
  static final int GHOST = 2;

  private int smallCapacity;
  private int mainCapacity;
  private int ghostCapacity;
  private boolean ghostHit;

  S3FifoCache(int capacityBlocks) {
    super(EvictionPolicy.S3FIFO, capacityBlocks, 2, 1);
    sizeQueues();
  }

  @Override
  void applyCapacity() {
    smallCapacity = Math.max(1, (int) (capacity * SMALL_FRACTION));
    mainCapacity = capacity > smallCapacity ? capacity - smallCapacity : 0;
    ghostCapacity = (int) (capacity * GHOST_FRACTION);
  }

  @Override
  int ghostCapacity(int queue) {
    return ghostCapacity;
  }

  @Override
  int maxBits() {
    return MAX_FREQUENCY;
  }

  @Override
  void clearMissState() {
    ghostHit = false;
  }

  @Override
  void onHit(int node) {
    int f = pool.bits(node);
    if (f < MAX_FREQUENCY) {
      pool.setBits(node, f + 1);
    }
  }

  @Override
  void onMiss(int ghost) {
    ghostHit = forgetGhost(ghost);
  }

  @Override
  void onInsert(long block) {
    pool.add(ghostHit ? MAIN : SMALL, block);
    ghostHit = false;
  }

  @Override
  void evict() {
    for (;;) {
      if (pool.size(SMALL) == 0 && pool.size(MAIN) == 0) {
        return;
      }
      if (pool.size(MAIN) > mainCapacity || pool.size(SMALL) == 0) {
        evictMain();
        return;
      }
      if (evictSmall()) {
        return;
      }
    }
  }

  private void evictMain() {
    for (;;) {
      int tail = pool.oldest(MAIN);
      int f = pool.bits(tail);
      if (f == 0) {
        pool.delete(tail);
        return;
      }
      pool.setBits(tail, f - 1);
      pool.moveToFront(tail, MAIN);
    }
  }

  /** False when S emptied into M without evicting. */
  private boolean evictSmall() {
    while (pool.size(SMALL) > 0) {
      int tail = pool.oldest(SMALL);
      if (pool.bits(tail) >= MOVE_TO_MAIN_THRESHOLD) {
        pool.setBits(tail, 0);
        pool.moveToFront(tail, MAIN);
        continue;
      }
      retire(tail, GHOST);
      return true;
    }
    return false;
  }

  int smallCapacity() {
    return smallCapacity;
  }

  int mainCapacity() {
    return mainCapacity;
  }
}
