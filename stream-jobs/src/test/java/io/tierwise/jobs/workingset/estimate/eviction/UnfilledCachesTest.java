package io.tierwise.jobs.workingset.estimate.eviction;

import static io.tierwise.jobs.workingset.estimate.eviction.CacheStates.assertSameStates;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.function.LongPredicate;
import java.util.stream.Stream;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * The unfilled table stands for every policy's cache until the first eviction: each reference hits
 * or misses as in every policy's own cache, and the caches it builds are in the same state (their
 * checkpoint bytes are equal), through removals and resizes as MiniatureSimulations makes them.
 */
class UnfilledCachesTest {
  private static final List<EvictionPolicy> POLICIES = List.of(EvictionPolicy.values());

  @Test
  void theCachesItBuildsAreThoseTheReferencesWouldHaveBuilt() throws IOException {
    for (int seed = 1; seed <= 200; seed++) {
      Random random = new Random(seed);
      int capacity = 1 + random.nextInt(48);
      int universe = 1 + random.nextInt(3 * capacity);
      SimulatedCache[] eager = POLICIES.stream().map(p -> p.newCache(capacity)).toArray(SimulatedCache[]::new);
      UnfilledCaches unfilled = new UnfilledCaches(capacity);
      SimulatedCache[] built = null;
      for (int i = 0; i < 2_000; i++) {
        int dice = random.nextInt(100);
        if (dice == 0) {
          long salt = random.nextLong();
          LongPredicate drop = block -> Long.hashCode(block ^ salt) % 5 == 0;
          Stream.of(eager, built).filter(Objects::nonNull).flatMap(Arrays::stream).forEach(c -> c.removeIf(drop));
          if (built == null) {
            unfilled.removeIf(drop);
          }
          continue;
        }
        if (dice == 1) {
          int resized = 1 + random.nextInt(2 * capacity);
          if (built == null && unfilled.size() > resized) {
            built = unfilled.materialize(POLICIES);
            assertSameStates(built, eager, "seed " + seed + " before a shrink");
            unfilled = null;
          }
          Stream.of(eager, built).filter(Objects::nonNull).flatMap(Arrays::stream).forEach(c -> c.resize(resized));
          if (built == null) {
            unfilled.resize(resized);
          }
          continue;
        }
        // Skewed: a quarter of the references go to an eighth of the blocks.
        long block = random.nextInt(4) == 0 ? random.nextInt(Math.max(1, universe / 8)) : random.nextInt(universe);
        block = block * 0x9E3779B97F4A7C15L;
        if (built == null) {
          int outcome = unfilled.access(block);
          if (outcome == UnfilledCaches.FULL) {
            built = unfilled.materialize(POLICIES);
            assertSameStates(built, eager, "seed " + seed + " at the first eviction");
            unfilled = null;
          } else {
            for (SimulatedCache c : eager) {
              assertThat(c.access(block)).as("seed %d reference %d, %s", seed, i, c.policy())
                  .isEqualTo(outcome == UnfilledCaches.HIT);
            }
            continue;
          }
        }
        for (int p = 0; p < eager.length; p++) {
          assertThat(built[p].access(block)).as("seed %d reference %d, %s", seed, i, eager[p].policy())
              .isEqualTo(eager[p].access(block));
        }
      }
      if (built == null) {
        assertSameStates(unfilled.materialize(POLICIES), eager, "seed " + seed + " never filled");
      }
    }
  }

  @Test
  void itRoundTripsThroughItsStateAndItsCopyIsIndependent() throws IOException {
    UnfilledCaches u = new UnfilledCaches(64);
    for (long b = 0; b < 40; b++) {
      u.access(b);
      if (b % 3 == 0) {
        u.access(b);
      }
    }
    DataOutputSerializer out = new DataOutputSerializer(256);
    u.writeTo(out);
    assertThat((long) out.length()).isEqualTo(u.serializedBytes());
    UnfilledCaches read = UnfilledCaches.readFrom(new DataInputDeserializer(out.getCopyOfBuffer()));
    UnfilledCaches copy = u.copy();
    u.access(1000);
    assertThat(copy.size()).isEqualTo(40);
    assertThat(copy.access(1000)).isEqualTo(UnfilledCaches.MISS);
    assertThat(read.access(999)).isEqualTo(UnfilledCaches.MISS);
    assertThat(read.access(3)).isEqualTo(UnfilledCaches.HIT);
    SimulatedCache[] fromRead = read.materialize(POLICIES);
    u.access(999);
    u.access(3);
    u.removeIf(block -> block == 1000);
    SimulatedCache[] fromOriginal = u.materialize(POLICIES);
    assertSameStates(fromRead, fromOriginal, "restored");
  }

  @Test
  void aFullTableRefusesANewBlockAndAShrinkBelowItsBlocks() {
    UnfilledCaches u = new UnfilledCaches(2);
    assertThat(u.access(1)).isEqualTo(UnfilledCaches.MISS);
    assertThat(u.access(2)).isEqualTo(UnfilledCaches.MISS);
    assertThat(u.access(1)).isEqualTo(UnfilledCaches.HIT);
    assertThat(u.access(3)).as("an eviction is due: the policies differ from here").isEqualTo(UnfilledCaches.FULL);
    assertThat(u.size()).isEqualTo(2);
    assertThatThrownBy(() -> u.resize(1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("materialize");
    u.resize(3);
    assertThat(u.access(3)).isEqualTo(UnfilledCaches.MISS);
  }

  @Test
  void aCorruptStateIsRefusedWithAReason() throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(64);
    out.writeInt(1);
    out.writeInt(4);
    out.writeLong(10);
    out.writeInt(5);
    assertThatThrownBy(() -> UnfilledCaches.readFrom(new DataInputDeserializer(out.getCopyOfBuffer())))
        .isInstanceOf(IOException.class).hasMessageContaining("5 of 4 blocks");
  }

}
