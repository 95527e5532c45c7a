package io.tierwise.jobs.workingset.estimate.eviction;

import static io.tierwise.jobs.workingset.estimate.eviction.EntryPool.NONE;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** What each policy's paper promises, as the engine's edge-agent/tests/eviction_policy_test.cpp checks it. */
class EvictionPoliciesTest {
  /** Accesses {@code blocks} in order; returns the hits. */
  private static int accessAll(SimulatedCache cache, long... blocks) {
    int hits = 0;
    for (long b : blocks) {
      hits += cache.access(b) ? 1 : 0;
    }
    return hits;
  }

  private static long[] range(long from, long to) {
    return LongStream.range(from, to).toArray();
  }

  @Test
  void s3fifoSizesItsQueuesAsTheEngine() {
    S3FifoCache small = new S3FifoCache(5);
    assertThat(small.smallCapacity()).isEqualTo(1);
    assertThat(small.mainCapacity()).isEqualTo(4);
    S3FifoCache cache = new S3FifoCache(1000);
    assertThat(cache.smallCapacity()).isEqualTo(100);
    assertThat(cache.mainCapacity()).isEqualTo(900);
    assertThat(new S3FifoCache(1).mainCapacity()).isZero();
  }

  @Test
  void s3fifoOneHitWondersLeaveFromSmallAndComeBackThroughGhostIntoMain() {
    S3FifoCache cache = new S3FifoCache(10); // S 1, M 9, G 9
    assertThat(accessAll(cache, range(1, 21))).isZero();
    // Every block entered S; blocks 1..10 left from S into G (9 entries: 1 was dropped), none into M.
    assertThat(cache.queueSize(S3FifoCache.MAIN)).isZero();
    assertThat(cache.queueSize(S3FifoCache.SMALL)).isEqualTo(10);
    assertThat(cache.queueSize(S3FifoCache.GHOST)).isEqualTo(9);
    assertThat(cache.queueOf(1)).isEqualTo(NONE);
    for (long b = 2; b <= 10; b++) {
      assertThat(cache.queueOf(b)).as("block %d", b).isEqualTo(S3FifoCache.GHOST);
    }
    // A ghost hit is a miss that enters M.
    assertThat(cache.access(5)).isFalse();
    assertThat(cache.queueOf(5)).isEqualTo(S3FifoCache.MAIN);
    assertThat(cache.queueSize(S3FifoCache.GHOST)).isEqualTo(9); // 5 left G, 11 entered it
    assertThat(cache.size()).isEqualTo(10);
  }

  @Test
  void s3fifoMovesABlockAccessedTwiceInSmallToMainAndGivesMainSecondChances() {
    S3FifoCache cache = new S3FifoCache(2); // S 1, M 1, G 1
    cache.access(1);
    assertThat(accessAll(cache, 1, 1)).isEqualTo(2); // counter 2: the move-to-main threshold
    cache.access(2);
    cache.access(3); // evicts from S: 1 moves to M with its counter reset, 2 leaves into G
    assertThat(cache.queueOf(1)).isEqualTo(S3FifoCache.MAIN);
    assertThat(counter(cache, 1)).isZero();
    assertThat(cache.queueOf(2)).isEqualTo(S3FifoCache.GHOST);
    assertThat(accessAll(cache, 1, 1, 1, 1, 1)).isEqualTo(5);
    assertThat(counter(cache, 1)).as("capped").isEqualTo(S3FifoCache.MAX_FREQUENCY);
    cache.access(4); // 3 leaves S into G (G holds one: 2 is dropped)
    assertThat(cache.queueOf(2)).isEqualTo(NONE);
    assertThat(cache.queueOf(3)).isEqualTo(S3FifoCache.GHOST);
    accessAll(cache, 4, 4);
    // S's tail 4 moves to M; S is empty, so M gives: 1 is reinserted with its counter decremented,
    // 4 (counter 0) leaves, and M's victims leave no ghost entry.
    cache.access(5);
    assertThat(cache.queueOf(1)).isEqualTo(S3FifoCache.MAIN);
    assertThat(counter(cache, 1)).isEqualTo(S3FifoCache.MAX_FREQUENCY - 1);
    assertThat(cache.queueOf(4)).isEqualTo(NONE);
    assertThat(cache.queueOf(5)).isEqualTo(S3FifoCache.SMALL);
  }

  private static int counter(QueueCache cache, long block) {
    return cache.pool.bits(cache.pool.find(block));
  }

  @Test
  void arcKeepsPAtZeroThroughAScanAndMovesItOnGhostHits() {
    ArcCache cache = new ArcCache(4);
    cache.access(1);
    cache.access(1); // 1 in T2
    assertThat(cache.queueOf(1)).isEqualTo(ArcCache.T2);
    accessAll(cache, 2, 3, 4); // T1 = 2 3 4
    cache.access(5); // |T1| = 3 > p = 0: T1's LRU block 2 into B1
    assertThat(cache.queueOf(2)).isEqualTo(ArcCache.B1);
    assertThat(cache.targetT1()).isZero();
    // A scan of blocks seen once never raises p and keeps T2's block.
    assertThat(accessAll(cache, range(100, 140))).isZero();
    assertThat(cache.targetT1()).isZero();
    assertThat(cache.queueOf(1)).isEqualTo(ArcCache.T2);
    assertThat(cache.access(1)).isTrue();
    // A B1 ghost hit raises p by max(|B2| / |B1|, 1) and enters T2.
    long b1Block = LongStream.range(100, 140).filter(b -> cache.queueOf(b) == ArcCache.B1).findFirst().orElseThrow();
    assertThat(cache.queueOf(b1Block)).isEqualTo(ArcCache.B1);
    assertThat(cache.queueSize(ArcCache.B2)).isZero();
    cache.access(b1Block);
    assertThat(cache.targetT1()).isEqualTo(1.0);
    assertThat(cache.queueOf(b1Block)).isEqualTo(ArcCache.T2);
    // Blocks read twice fill T2 until, with |T1| <= p, REPLACE takes T2's LRU block into B2; a B2
    // ghost hit lowers p by max(|B1| / |B2|, 1), floored at 0.
    for (long b = 200; cache.queueSize(ArcCache.B2) == 0; b++) {
      cache.access(b);
      cache.access(b); // into T2, so T2 overflows into B2
    }
    double before = cache.targetT1();
    long b2Block = LongStream.range(0, 300).filter(b -> cache.queueOf(b) == ArcCache.B2).findFirst().orElseThrow();
    double b1 = cache.queueSize(ArcCache.B1);
    double b2 = cache.queueSize(ArcCache.B2);
    cache.access(b2Block);
    assertThat(before).isPositive();
    assertThat(cache.targetT1()).isEqualTo(Math.max(0, before - Math.max(b1 / b2, 1)));
    assertThat(cache.queueOf(b2Block)).isEqualTo(ArcCache.T2);
  }

  @Test
  void twoQAbsorbsCorrelatedReferencesAndPromotesGhostHitsToAm() {
    TwoQCache cache = new TwoQCache(8); // Kin 2, Kout 4
    assertThat(cache.kIn()).isEqualTo(2);
    assertThat(cache.kOut()).isEqualTo(4);
    cache.access(1);
    assertThat(cache.access(1)).isTrue();
    assertThat(cache.queueOf(1)).as("a hit in A1in does not promote").isEqualTo(TwoQCache.A1IN);
    accessAll(cache, range(2, 21));
    // Am is empty, so A1in held every block and its victims 1..12 went to A1out, bounded at Kout.
    assertThat(cache.queueSize(TwoQCache.A1IN)).isEqualTo(8);
    assertThat(cache.queueSize(TwoQCache.A1OUT)).isEqualTo(4);
    for (long b = 9; b <= 12; b++) {
      assertThat(cache.queueOf(b)).isEqualTo(TwoQCache.A1OUT);
    }
    assertThat(cache.queueOf(8)).isEqualTo(NONE);
    // An A1out hit is a miss that enters Am; then A1in (8 > Kin) gives the victim, into A1out.
    assertThat(cache.access(12)).isFalse();
    assertThat(cache.queueOf(12)).isEqualTo(TwoQCache.AM);
    assertThat(cache.queueOf(13)).isEqualTo(TwoQCache.A1OUT);
    // Am is LRU: a hit moves its block to the front.
    assertThat(cache.access(12)).isTrue();
    assertThat(cache.queueOf(12)).isEqualTo(TwoQCache.AM);
  }

  @Test
  void sieveHandClearsVisitedBitsAndEvictsTheFirstUnvisitedBlock() {
    SieveCache cache = new SieveCache(4);
    accessAll(cache, 1, 2, 3, 4);
    assertThat(cache.handPosition()).isEqualTo(-1);
    assertThat(accessAll(cache, 1, 2)).isEqualTo(2);
    assertThat(cache.order()).containsExactly(1, 2, 3, 4); // hits move nothing
    cache.access(5); // hand from the tail: 1 and 2 visited (cleared), 3 is the victim
    assertThat(cache.order()).containsExactly(1, 2, 4, 5);
    assertThat(cache.visited(1)).isFalse();
    assertThat(cache.visited(2)).isFalse();
    assertThat(cache.handBlock()).isEqualTo(4);
    cache.access(6); // the hand stays where it was: 4 goes
    assertThat(cache.order()).containsExactly(1, 2, 5, 6);
    assertThat(cache.handBlock()).isEqualTo(5);
    accessAll(cache, 5, 6);
    cache.access(7); // 5 and 6 visited, past the head the hand wraps to the tail: 1 goes
    assertThat(cache.order()).containsExactly(2, 5, 6, 7);
    assertThat(cache.handBlock()).isEqualTo(2);
    accessAll(cache, 2, 5, 6);
    cache.access(8); // 2, 5, 6 visited: the head 7 is the victim and the hand is unset
    assertThat(cache.order()).containsExactly(2, 5, 6, 8);
    assertThat(cache.handPosition()).isEqualTo(-1);
    cache.access(9); // from the tail again, every bit cleared: 2 goes
    assertThat(cache.order()).containsExactly(5, 6, 8, 9);
  }

  /**
   * A loop over 1.5 times the cache, never hit within a pass: LRU loses every block. So do ARC (no
   * hit, so T2 and B1 stay empty and each miss is Figure 4's case IV with |T1| = c, T1's LRU block
   * leaving without a ghost) and SIEVE (no visited bit is ever set: it is FIFO). S3-FIFO and 2Q
   * remember the evicted blocks in their ghost queues, admit them to M or Am on the next pass and
   * keep part of the loop there.
   */
  @Test
  void lruLosesALoopLargerThanTheCacheS3fifoAnd2qKeepPartOfIt() {
    int capacity = 100;
    long[] loop = range(0, 150);
    Map<EvictionPolicy, Integer> hits = new EnumMap<>(EvictionPolicy.class);
    for (EvictionPolicy p : EvictionPolicy.values()) {
      SimulatedCache cache = p.newCache(capacity);
      int h = 0;
      for (int pass = 0; pass < 20; pass++) {
        h += accessAll(cache, loop);
      }
      hits.put(p, h);
    }
    System.out.println("hits of 20 passes over 150 blocks, capacity 100: " + hits);
    for (EvictionPolicy p : new EvictionPolicy[] {EvictionPolicy.LRU, EvictionPolicy.ARC, EvictionPolicy.SIEVE}) {
      assertThat(hits.get(p)).as(p.wireName()).isZero();
    }
    for (EvictionPolicy p : new EvictionPolicy[] {EvictionPolicy.S3FIFO, EvictionPolicy.TWO_Q}) {
      assertThat(hits.get(p)).as(p.wireName()).isGreaterThan(19 * capacity / 4);
    }
  }

  /**
   * The engine's ScanResistanceTest: a hot set read, pushed out by as many other blocks as the cache
   * holds, read twice more, then a scan ten times the cache: LRU loses the hot set, the others keep it.
   */
  @Test
  void aReusedSetSurvivesAScanExceptInLru() {
    int capacity = 40;
    long[] hot = range(0, 8);
    for (EvictionPolicy p : EvictionPolicy.values()) {
      SimulatedCache cache = p.newCache(capacity);
      accessAll(cache, hot);
      accessAll(cache, range(1000, 1000 + capacity));
      accessAll(cache, hot);
      accessAll(cache, hot);
      accessAll(cache, range(100_000, 100_400));
      int kept = accessAll(cache, hot);
      assertThat(kept).as(p.wireName()).isEqualTo(p == EvictionPolicy.LRU ? 0 : hot.length);
    }
  }
}
