package io.tierwise.jobs.workingset.estimate.eviction;

import static io.tierwise.jobs.workingset.estimate.eviction.CacheStates.assertSameStates;
import static io.tierwise.jobs.workingset.estimate.eviction.CacheStates.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;

/**
 * Caches that share one block index ({@link SimulatedCache#share}) give the hits, misses and states
 * of caches with their own, through removals, resizes, compactions, copies and references given to
 * some caches only (as MiniatureSimulations gives every reference to all, but a test must also
 * catch an index that answers one cache with another's lookup).
 */
class BlockIndexTest {
  private static final List<EvictionPolicy> POLICIES = List.of(EvictionPolicy.values());

  @Test
  void sharedCachesBehaveAsCachesWithTheirOwnIndex() throws IOException {
    for (int seed = 1; seed <= 200; seed++) {
      Random random = new Random(seed);
      int capacity = 1 + random.nextInt(64);
      int universe = 1 + random.nextInt(4 * capacity);
      SimulatedCache[] own = caches(capacity);
      SimulatedCache[] shared = caches(capacity);
      SimulatedCache.share(shared);
      for (int i = 0; i < 3_000; i++) {
        int dice = random.nextInt(200);
        String at = "seed " + seed + " step " + i;
        if (dice == 0) {
          long salt = random.nextLong();
          LongPredicate drop = block -> Long.hashCode(block ^ salt) % 4 == 0;
          forBoth(own, shared, c -> c.removeIf(drop));
        } else if (dice == 1) {
          // A shrink far below the entries compacts each pool's arrays under the shared index.
          int resized = 1 + random.nextInt(2 * capacity);
          forBoth(own, shared, c -> c.resize(resized));
          if (random.nextBoolean()) {
            SimulatedCache.share(shared);
          }
        } else if (dice == 2) {
          SimulatedCache[] copies = SimulatedCache.copyAll(shared);
          assertSameStates(copies, own, at + " (copy)");
          // Going on with the copies leaves the originals as they were, and the other way round.
          long block = random.nextLong();
          for (SimulatedCache c : copies) {
            c.access(block);
          }
          assertSameStates(shared, own, at + " (original after its copy went on)");
          shared = copies;
          for (SimulatedCache c : own) {
            c.access(block);
          }
        } else if (dice == 3) {
          int p = random.nextInt(POLICIES.size());
          SimulatedCache alone = shared[p].copy();
          assertThat(bytes(alone)).as("%s: one cache copied alone", at).isEqualTo(bytes(own[p]));
        } else {
          long block = (random.nextInt(4) == 0 ? random.nextInt(Math.max(1, universe / 8)) : random.nextInt(universe))
              * 0x9E3779B97F4A7C15L;
          // Mostly every cache in turn; sometimes one cache only, or the others in reverse order.
          int mode = random.nextInt(10);
          for (int k = 0; k < shared.length; k++) {
            int p = mode == 0 ? shared.length - 1 - k : k;
            if (mode == 1 && p != block % shared.length) {
              continue;
            }
            assertThat(shared[p].access(block)).as("%s, %s", at, POLICIES.get(p)).isEqualTo(own[p].access(block));
          }
        }
      }
      assertSameStates(shared, own, "seed " + seed);
    }
  }

  @Test
  void oneIndexForAMiniatureSizeHoldsLessThanOneEach() {
    SimulatedCache[] own = caches(512);
    SimulatedCache[] shared = caches(512);
    SimulatedCache.share(shared);
    Random random = new Random(7);
    for (int i = 0; i < 50_000; i++) {
      long block = (random.nextInt(4) == 0 ? random.nextInt(256) : random.nextInt(4096)) * 0x9E3779B97F4A7C15L;
      for (int p = 0; p < own.length; p++) {
        own[p].access(block);
        shared[p].access(block);
      }
    }
    long sharedBytes = Arrays.stream(shared).mapToLong(SimulatedCache::stateBytes).sum();
    long ownBytes = Arrays.stream(own).mapToLong(SimulatedCache::stateBytes).sum();
    assertThat(sharedBytes).isLessThan(ownBytes);
  }

  private static SimulatedCache[] caches(int capacity) {
    return POLICIES.stream().map(p -> p.newCache(capacity)).toArray(SimulatedCache[]::new);
  }

  private interface CacheStep {
    void apply(SimulatedCache cache);
  }

  private static void forBoth(SimulatedCache[] own, SimulatedCache[] shared, CacheStep step) {
    for (int p = 0; p < own.length; p++) {
      step.apply(own[p]);
      step.apply(shared[p]);
    }
  }
}
