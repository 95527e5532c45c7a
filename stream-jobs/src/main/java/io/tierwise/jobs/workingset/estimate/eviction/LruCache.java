package io.tierwise.jobs.workingset.estimate.eviction;

import static io.tierwise.jobs.workingset.estimate.eviction.EntryPool.NONE;

/**
 * Least recently used (Mattson, Gecsei, Slutz and Traiger, "Evaluation techniques for storage
 * hierarchies", IBM Systems Journal 9(2), 1970): one list, a hit moves the block to the front, the
 * back is evicted. Mirrors edge-agent/src/cache/eviction/lru_policy.hpp.
 */
final class LruCache extends QueueCache {
  private static final int LIST = 0;

  LruCache(int capacityBlocks) {
    super(EvictionPolicy.LRU, capacityBlocks, 1, 0);
    sizeQueues();
  }

  @Override
  void onHit(int node) {
    pool.moveToFront(node, LIST);
  }

  @Override
  void onMiss(int ghost) {}

  @Override
  void evict() {
    int victim = pool.oldest(LIST);
    if (victim != NONE) {
      pool.delete(victim);
    }
  }

  @Override
  void onInsert(long block) {
    pool.add(LIST, block);
  }

  @Override
  void applyCapacity() {}
}
