package io.tierwise.jobs.testing;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reference LRU cache simulation for tests: one access-ordered {@link LinkedHashMap} per cache
 * size, evicting the least recently used block when full. Deliberately independent of the
 * production stack-distance code it checks.
 */
public final class ExactLru {
  private final long[] capacityBlocks;
  private final LruSet[] caches;
  private final long[] hits;
  private long references;

  /**
   * @param cacheBytes cache sizes in bytes (multiples of 4096)
   */
  public ExactLru(long[] cacheBytes) {
    capacityBlocks = new long[cacheBytes.length];
    caches = new LruSet[cacheBytes.length];
    hits = new long[cacheBytes.length];
    for (int i = 0; i < cacheBytes.length; i++) {
      capacityBlocks[i] = cacheBytes[i] / 4096;
      caches[i] = new LruSet(capacityBlocks[i]);
    }
  }

  /** One reference to a 4 KiB block. */
  public void reference(long block) {
    references++;
    for (int i = 0; i < caches.length; i++) {
      if (caches[i].get(block) != null) {
        hits[i]++;
      } else {
        caches[i].put(block, Boolean.TRUE);
      }
    }
  }

  /** Miss ratios at the sizes given to the constructor. */
  public double[] missRatios() {
    double[] m = new double[hits.length];
    for (int i = 0; i < m.length; i++) {
      m[i] = 1.0 - (double) hits[i] / references;
    }
    return m;
  }

  private static final class LruSet extends LinkedHashMap<Long, Boolean> {
    private static final long serialVersionUID = 1L;
    private final long capacity;

    LruSet(long capacity) {
      super(16, 0.75f, true);
      this.capacity = capacity;
    }

    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
      return size() > capacity;
    }
  }
}
