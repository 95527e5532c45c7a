package io.tierwise.jobs.workingset.estimate.eviction;

import static io.tierwise.jobs.workingset.estimate.eviction.EntryPool.NONE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.LongStream;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The cache API every policy shares: names, resize, removeIf, copies, state and its size. */
class SimulatedCacheTest {
  /** A skewed stream of 64-bit block hashes: 70 % of references to 5 % of {@code blocks}. */
  private static long[] stream(int n, int blocks, long seed) {
    Random r = new Random(seed);
    long[] refs = new long[n];
    for (int i = 0; i < n; i++) {
      long block = r.nextInt(10) < 7 ? r.nextInt(blocks / 20) : r.nextInt(blocks);
      refs[i] = block * 0x9E3779B97F4A7C15L; // spread over 64 bits, 0 included
    }
    return refs;
  }

  private static boolean[] hits(SimulatedCache cache, long[] refs, int from, int to) {
    boolean[] h = new boolean[to - from];
    for (int i = from; i < to; i++) {
      h[i - from] = cache.access(refs[i]);
    }
    return h;
  }

  private static int ghosts(SimulatedCache cache) {
    return ((QueueCache) cache).entries() - cache.size();
  }

  @Test
  void namesParseBackAndUnknownNamesListTheValidOnes() {
    for (EvictionPolicy p : EvictionPolicy.values()) {
      assertThat(EvictionPolicy.parse(p.wireName())).isSameAs(p);
      assertThat(p.newCache(3).policy()).isSameAs(p);
    }
    assertThat(Arrays.stream(EvictionPolicy.values()).map(EvictionPolicy::wireName))
        .containsExactly("lru", "s3fifo", "arc", "2q", "sieve");
    assertThatThrownBy(() -> EvictionPolicy.parse("LRU")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'LRU'").hasMessageContaining("lru, s3fifo, arc, 2q, sieve");
  }

  @ParameterizedTest
  @EnumSource(EvictionPolicy.class)
  void aCapacityBelowOneBlockIsRejected(EvictionPolicy policy) {
    assertThatThrownBy(() -> policy.newCache(0)).isInstanceOf(IllegalArgumentException.class);
    SimulatedCache cache = policy.newCache(1);
    assertThatThrownBy(() -> cache.resize(0)).isInstanceOf(IllegalArgumentException.class);
    assertThat(cache.access(7)).isFalse();
    assertThat(cache.access(7)).isTrue();
    assertThat(cache.access(8)).isFalse();
    assertThat(cache.size()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(EvictionPolicy.class)
  void theCacheNeverHoldsMoreThanItsCapacityNorGhostsBeyondTheirBounds(EvictionPolicy policy) {
    SimulatedCache cache = policy.newCache(500);
    long[] refs = stream(50_000, 5_000, 1);
    for (long b : refs) {
      cache.access(b);
      assertThat(cache.size()).isLessThanOrEqualTo(500);
    }
    assertThat(cache.size()).isEqualTo(500);
    // S3-FIFO 450 ghosts, ARC 2 x 500 (B1 and B2), 2Q 250, LRU and SIEVE none.
    int bound = switch (policy) {
      case LRU, SIEVE -> 0;
      case S3FIFO -> 450;
      case ARC -> 1000;
      case TWO_Q -> 250;
    };
    assertThat(ghosts(cache)).isLessThanOrEqualTo(bound);
    if (bound > 0) {
      assertThat(ghosts(cache)).isPositive();
    }
  }

  @ParameterizedTest
  @EnumSource(EvictionPolicy.class)
  void growingKeepsEveryBlockAndShrinkingEvictsDownToTheNewCapacity(EvictionPolicy policy) {
    SimulatedCache cache = policy.newCache(200);
    long[] refs = stream(20_000, 2_000, 2);
    hits(cache, refs, 0, refs.length);
    long[] resident = LongStream.of(refs).distinct().filter(b -> resident(cache, b)).toArray();
    assertThat(resident).hasSize(200);
    cache.resize(400);
    assertThat(cache.capacity()).isEqualTo(400);
    assertThat(cache.size()).isEqualTo(200);
    for (long b : resident) {
      assertThat(cache.access(b)).as("block %d after growing", b).isTrue();
    }
    cache.resize(30);
    assertThat(cache.size()).isEqualTo(30);
    assertThat(ghosts(cache)).isLessThanOrEqualTo(policy == EvictionPolicy.ARC ? 60 : 27);
    hits(cache, refs, 0, 5_000);
    assertThat(cache.size()).isEqualTo(30);
  }

  @Test
  void resizeRecomputesEachPolicysDerivedSizes() {
    S3FifoCache s3 = new S3FifoCache(1000);
    hits(s3, stream(30_000, 10_000, 3), 0, 30_000);
    assertThat(s3.queueSize(S3FifoCache.GHOST)).isEqualTo(900);
    s3.resize(50);
    assertThat(s3.smallCapacity()).isEqualTo(5);
    assertThat(s3.mainCapacity()).isEqualTo(45);
    assertThat(s3.queueSize(S3FifoCache.GHOST)).isEqualTo(45);
    assertThat(s3.size()).isEqualTo(50);

    TwoQCache twoQ = new TwoQCache(1000);
    hits(twoQ, stream(30_000, 10_000, 3), 0, 30_000);
    assertThat(twoQ.queueSize(TwoQCache.A1OUT)).isEqualTo(500);
    twoQ.resize(10);
    assertThat(twoQ.kIn()).isEqualTo(2);
    assertThat(twoQ.kOut()).isEqualTo(5);
    assertThat(twoQ.queueSize(TwoQCache.A1OUT)).isEqualTo(5);

    ArcCache arc = new ArcCache(100);
    long[] refs = stream(30_000, 1_000, 4);
    hits(arc, refs, 0, refs.length);
    assertThat(arc.targetT1()).isPositive();
    arc.resize(2);
    assertThat(arc.targetT1()).isLessThanOrEqualTo(2.0);
    assertThat(arc.queueSize(ArcCache.B1)).isLessThanOrEqualTo(2);
    assertThat(arc.queueSize(ArcCache.B2)).isLessThanOrEqualTo(2);
    assertThat(arc.size()).isEqualTo(2);
  }

  @ParameterizedTest
  @EnumSource(EvictionPolicy.class)
  void removeIfForgetsResidentAndGhostBlocksWithoutMakingGhosts(EvictionPolicy policy) {
    QueueCache cache = (QueueCache) policy.newCache(300);
    long[] refs = stream(30_000, 3_000, 5);
    hits(cache, refs, 0, refs.length);
    long[] known = LongStream.of(refs).distinct().filter(b -> cache.queueOf(b) != NONE).toArray();
    long[] dropped = LongStream.of(known).filter(b -> (b & 1) == 0).toArray();
    long[] kept = LongStream.of(known).filter(b -> (b & 1) != 0).toArray();
    int[] queues = LongStream.of(kept).mapToInt(cache::queueOf).toArray();
    long droppedResident = LongStream.of(dropped).filter(b -> resident(cache, b)).count();
    int sizeBefore = cache.size();
    assertThat(dropped).isNotEmpty();

    cache.removeIf(b -> (b & 1) == 0);

    assertThat(cache.size()).isEqualTo(sizeBefore - (int) droppedResident);
    assertThat(cache.entries()).isEqualTo(kept.length);
    for (int i = 0; i < kept.length; i++) {
      assertThat(cache.queueOf(kept[i])).as("kept block %d", kept[i]).isEqualTo(queues[i]);
    }
    for (long b : dropped) {
      assertThat(cache.queueOf(b)).isEqualTo(NONE);
      assertThat(cache.access(b)).as("dropped block %d", b).isFalse();
    }
    assertThat(cache.size()).isLessThanOrEqualTo(300);
    hits(cache, refs, 0, 10_000);
    assertThat(cache.size()).isEqualTo(300);
  }

  @ParameterizedTest
  @EnumSource(EvictionPolicy.class)
  void aLargeShrinkReallocatesForTheEntriesHeldKeepingEveryQueuesOrder(EvictionPolicy policy) throws IOException {
    QueueCache cache = (QueueCache) policy.newCache(2000);
    long[] refs = stream(60_000, 20_000, 8);
    hits(cache, refs, 0, refs.length);
    long before = cache.stateBytes();
    cache.resize(1500); // the arrays fit: no reallocation
    assertThat(cache.stateBytes()).isEqualTo(before);
    DataOutputSerializer state = new DataOutputSerializer(1024);
    cache.writeTo(state);
    cache.renumbered(cache.pool.compact());
    DataOutputSerializer compacted = new DataOutputSerializer(1024);
    cache.writeTo(compacted);
    assertThat(compacted.getCopyOfBuffer()).as("every queue in order, the policy's bytes, SIEVE's hand")
        .isEqualTo(state.getCopyOfBuffer());
    for (long b : refs) {
      int node = cache.pool.find(b);
      if (node != NONE) {
        assertThat(cache.pool.block(node)).isEqualTo(b);
      }
    }
    cache.resize(100);
    assertThat(cache.stateBytes()).isLessThan(before / 8);
    assertThat(cache.size()).isEqualTo(100);
    SimulatedCache restored = SimulatedCache.readFrom(new DataInputDeserializer(serialized(cache)));
    assertThat(hits(cache, refs, 0, 20_000)).isEqualTo(hits(restored, refs, 0, 20_000));
  }

  private static byte[] serialized(SimulatedCache cache) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(1024);
    cache.writeTo(out);
    return out.getCopyOfBuffer();
  }

  @Test
  void removeIfOfTheBlockUnderSievesHandMovesTheHandTowardsTheHead() {
    SieveCache cache = new SieveCache(4);
    for (long b : new long[] {1, 2, 3, 4, 1, 5}) {
      cache.access(b); // 2 is evicted, the hand stops at 3
    }
    assertThat(cache.handBlock()).isEqualTo(3);
    cache.removeIf(b -> b == 3 || b == 4);
    assertThat(cache.handBlock()).isEqualTo(5);
    cache.removeIf(b -> b == 5);
    assertThat(cache.handPosition()).isEqualTo(-1);
    assertThat(cache.order()).containsExactly(1);
  }

  @ParameterizedTest
  @EnumSource(EvictionPolicy.class)
  void aRestoredStateAndACopyGiveTheSameHitsAsTheOriginal(EvictionPolicy policy) throws IOException {
    long[] refs = stream(40_000, 4_000, 6);
    SimulatedCache cache = policy.newCache(400);
    hits(cache, refs, 0, 20_000);
    DataOutputSerializer out = new DataOutputSerializer(1024);
    cache.writeTo(out);
    SimulatedCache restored = SimulatedCache.readFrom(new DataInputDeserializer(out.getCopyOfBuffer()));
    SimulatedCache copy = cache.copy();
    assertThat(restored.policy()).isSameAs(policy);
    assertThat(restored.capacity()).isEqualTo(400);
    assertThat(restored.size()).isEqualTo(cache.size());
    assertThat(ghosts(restored)).isEqualTo(ghosts(cache));
    assertThat(out.length()).isEqualTo(4 + 2 + policy.wireName().length() + 4
        + 4 * queueCount(policy) + 9 * ((QueueCache) cache).entries() + scalarBytes(policy));

    boolean[] expected = hits(cache, refs, 20_000, refs.length);
    assertThat(hits(restored, refs, 20_000, refs.length)).isEqualTo(expected);
    assertThat(hits(copy, refs, 20_000, refs.length)).isEqualTo(expected);
  }

  private static int queueCount(EvictionPolicy policy) {
    return switch (policy) {
      case LRU, SIEVE -> 1;
      case S3FIFO, TWO_Q -> 3;
      case ARC -> 4;
    };
  }

  private static int scalarBytes(EvictionPolicy policy) {
    return switch (policy) {
      case ARC -> Double.BYTES;
      case SIEVE -> Integer.BYTES;
      default -> 0;
    };
  }

  @Test
  void aStateOfAnotherFormatOrInconsistentIsRejected() throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(64);
    out.writeInt(QueueCache.STATE_FORMAT + 1);
    assertThatThrownBy(() -> SimulatedCache.readFrom(new DataInputDeserializer(out.getCopyOfBuffer())))
        .isInstanceOf(IOException.class).hasMessageContaining("format");

    SimulatedCache cache = EvictionPolicy.LRU.newCache(2);
    cache.access(1);
    DataOutputSerializer tooMany = new DataOutputSerializer(64);
    tooMany.writeInt(QueueCache.STATE_FORMAT);
    tooMany.writeUTF("lru");
    tooMany.writeInt(2);
    tooMany.writeInt(3);
    assertThatThrownBy(() -> SimulatedCache.readFrom(new DataInputDeserializer(tooMany.getCopyOfBuffer())))
        .isInstanceOf(IOException.class).hasMessageContaining("3 entries");

    DataOutputSerializer unknown = new DataOutputSerializer(64);
    unknown.writeInt(QueueCache.STATE_FORMAT);
    unknown.writeUTF("fifo");
    unknown.writeInt(2);
    assertThatThrownBy(() -> SimulatedCache.readFrom(new DataInputDeserializer(unknown.getCopyOfBuffer())))
        .isInstanceOf(IOException.class).hasMessageContaining("fifo");
  }

  /**
   * Bytes per entry: a cache of 4,096 blocks that has filled its ghost queues, state as held divided
   * by its resident and ghost entries.
   */
  @ParameterizedTest
  @EnumSource(EvictionPolicy.class)
  void stateBytesStayWithinAFewTensOfBytesPerEntry(EvictionPolicy policy) {
    QueueCache cache = (QueueCache) policy.newCache(4096);
    hits(cache, stream(200_000, 40_000, 7), 0, 200_000);
    double perEntry = (double) cache.stateBytes() / cache.entries();
    System.out.printf("%s: %d entries (%d resident), %d bytes held, %.1f bytes per entry%n", policy.wireName(),
        cache.entries(), cache.size(), cache.stateBytes(), perEntry);
    assertThat(perEntry).isLessThanOrEqualTo(64);
  }

  private static boolean resident(SimulatedCache cache, long block) {
    return ((QueueCache) cache).holds(block);
  }
}
