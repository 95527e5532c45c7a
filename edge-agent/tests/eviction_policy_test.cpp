// Eviction policies of the tier index (LRU, S3-FIFO, ARC, 2Q, SIEVE): the behaviour
// each paper describes, visible in which blocks stay resident; the block map
// against std::unordered_map; deferred eviction of pinned victims.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <list>
#include <random>
#include <unordered_map>
#include <vector>

#include "cache/eviction/arc_policy.hpp"
#include "cache/eviction/block_map.hpp"
#include "cache/eviction/s3fifo_policy.hpp"
#include "cache/eviction/sieve_policy.hpp"
#include "cache/eviction/two_q_policy.hpp"
#include "cache/tier_index.hpp"

namespace tierwise::cache {
namespace {

using eviction::PolicyKind;

// One access through the index as the engine makes it: touch on a hit, insert
// on a miss. Returns whether it hit.
bool access(TierIndex& index, uint64_t block) {
  const uint32_t slot = index.find(block);
  if (slot != TierIndex::kNoSlot) {
    index.touch(slot);
    return true;
  }
  index.insert(block);
  return false;
}

bool resident(const TierIndex& index, uint64_t block) {
  return index.find(block) != TierIndex::kNoSlot;
}

TierIndex make_index(PolicyKind kind, uint32_t capacity, uint32_t staging = 0) {
  return TierIndex(capacity, capacity + staging, eviction::make_policy(kind, capacity));
}

TEST(BlockMapTest, AgreesWithUnorderedMapUnderRandomInsertsAndErases) {
  eviction::BlockMap map;
  std::unordered_map<uint64_t, uint32_t> ref;
  std::mt19937_64 rng(3);
  for (int i = 0; i < 200000; ++i) {
    const uint64_t block = rng() % 5000;  // dense keys, many collisions of probe runs
    if (rng() % 3 == 0) {
      EXPECT_EQ(map.erase(block), ref.erase(block) == 1);
    } else if (ref.count(block) == 0) {
      const auto value = static_cast<uint32_t>(rng() % 1000000);
      map.insert(block, value);
      ref[block] = value;
    }
    if (i % 1000 == 0) {
      for (uint64_t b = 0; b < 5000; b += 7) {
        const auto it = ref.find(b);
        ASSERT_EQ(map.find(b), it == ref.end() ? eviction::BlockMap::kAbsent : it->second);
      }
    }
  }
  EXPECT_EQ(map.size(), ref.size());
}

TEST(LruPolicyTest, MatchesAListBasedLruOnRandomBlocks) {
  TierIndex index = make_index(PolicyKind::kLru, 50);
  std::list<uint64_t> lru;  // most recent first
  std::mt19937 rng(11);
  for (int i = 0; i < 20000; ++i) {
    const uint64_t block = rng() % 120;
    const auto it = std::find(lru.begin(), lru.end(), block);
    const bool expected_hit = it != lru.end();
    if (expected_hit) lru.erase(it);
    lru.push_front(block);
    if (lru.size() > 50) lru.pop_back();
    ASSERT_EQ(access(index, block), expected_hit) << "access " << i;
  }
  EXPECT_EQ(index.size(), 50u);
}

// A hot set of `hot` blocks read, then pushed out by as many other blocks as
// the tier holds, read twice more, then a scan of `scan` blocks read once
// each: the scan-resistant policies keep the hot set, LRU loses it.
uint32_t hot_blocks_kept_after_scan(PolicyKind kind, uint32_t capacity, uint32_t hot,
                                    uint32_t scan) {
  TierIndex index = make_index(kind, capacity);
  for (uint64_t b = 0; b < hot; ++b) access(index, b);
  for (uint64_t b = 0; b < capacity; ++b) access(index, 1000 + b);
  for (int round = 0; round < 2; ++round) {
    for (uint64_t b = 0; b < hot; ++b) access(index, b);
  }
  for (uint64_t b = 0; b < scan; ++b) access(index, 100000 + b);
  uint32_t kept = 0;
  for (uint64_t b = 0; b < hot; ++b) kept += resident(index, b) ? 1 : 0;
  return kept;
}

TEST(ScanResistanceTest, S3FifoArc2QAndSieveKeepAReusedSetThroughAScanLruLosesIt) {
  constexpr uint32_t kCapacity = 40, kHot = 8, kScan = 400;
  EXPECT_EQ(hot_blocks_kept_after_scan(PolicyKind::kLru, kCapacity, kHot, kScan), 0u);
  EXPECT_EQ(hot_blocks_kept_after_scan(PolicyKind::kS3Fifo, kCapacity, kHot, kScan), kHot);
  EXPECT_EQ(hot_blocks_kept_after_scan(PolicyKind::kArc, kCapacity, kHot, kScan), kHot);
  EXPECT_EQ(hot_blocks_kept_after_scan(PolicyKind::kTwoQ, kCapacity, kHot, kScan), kHot);
  EXPECT_EQ(hot_blocks_kept_after_scan(PolicyKind::kSieve, kCapacity, kHot, kScan), kHot);
}

TEST(S3FifoPolicyTest, OneHitWondersLeaveFromTheSmallQueueAndComeBackThroughTheGhost) {
  constexpr uint32_t kCapacity = 20;  // S = 2 slots, M = 18, G = 18 entries
  TierIndex index = make_index(PolicyKind::kS3Fifo, kCapacity);
  const auto& s3 = static_cast<const eviction::S3FifoPolicy&>(index.policy());
  EXPECT_EQ(s3.small_capacity(), 2u);
  // Hot blocks 0..4, read three times each (counter 2: they move to M when
  // they reach S's tail).
  for (int round = 0; round < 3; ++round) {
    for (uint64_t b = 0; b < 5; ++b) access(index, b);
  }
  // 200 one-hit wonders.
  for (uint64_t b = 1000; b < 1200; ++b) access(index, b);
  for (uint64_t b = 0; b < 5; ++b) {
    ASSERT_TRUE(resident(index, b)) << "hot block " << b;
    EXPECT_TRUE(s3.in_main(index.find(b))) << "hot block " << b;
  }
  // Every one-hit wonder still resident is in S: none was promoted to M ...
  uint32_t wonders_resident = 0;
  for (uint64_t b = 1000; b < 1200; ++b) {
    if (!resident(index, b)) continue;
    ++wonders_resident;
    EXPECT_FALSE(s3.in_main(index.find(b))) << "one-hit wonder " << b << " reached M";
  }
  EXPECT_EQ(wonders_resident, kCapacity - 5);
  EXPECT_EQ(s3.main_size(), 5u) << "M holds the hot blocks only";
  // ... and the ones that left went through S into G; a re-access of a ghost
  // goes straight to M.
  const uint64_t recent_wonder = 1199 - (kCapacity - 5);  // evicted last
  ASSERT_FALSE(resident(index, recent_wonder));
  EXPECT_TRUE(s3.in_ghost(recent_wonder));
  EXPECT_FALSE(access(index, recent_wonder));
  EXPECT_TRUE(s3.in_main(index.find(recent_wonder)));
  EXPECT_FALSE(s3.in_ghost(recent_wonder));
}

TEST(ArcPolicyTest, PStaysAtZeroThroughAScanAndGrowsOnB1GhostHits) {
  constexpr uint32_t kCapacity = 16;
  TierIndex index = make_index(PolicyKind::kArc, kCapacity);
  const auto& arc = static_cast<const eviction::ArcPolicy&>(index.policy());
  for (int round = 0; round < 2; ++round) {
    for (uint64_t b = 0; b < 8; ++b) access(index, b);  // twice: T2
  }
  EXPECT_EQ(arc.t2_size(), 8u);
  for (uint64_t b = 1000; b < 1100; ++b) access(index, b);  // a scan: T1 and B1
  EXPECT_EQ(arc.target_t1(), 0.0) << "a scan of blocks seen once must not raise p";
  for (uint64_t b = 0; b < 8; ++b) EXPECT_TRUE(resident(index, b)) << "T2 block " << b;
  EXPECT_EQ(arc.t1_size(), 8u);
  EXPECT_EQ(arc.b1_size(), 8u) << "|T1| + |B1| = c";

  // Re-reading scan blocks just evicted (in B1) shows T1 is too small: p grows
  // by max(|B2| / |B1|, 1) per ghost hit.
  const double p_before = arc.target_t1();
  EXPECT_FALSE(access(index, 1099 - 8));
  EXPECT_EQ(arc.target_t1(), p_before + 1.0);
  EXPECT_FALSE(access(index, 1099 - 9));
  EXPECT_EQ(arc.target_t1(), p_before + 2.0);
  EXPECT_EQ(arc.t2_size() + arc.t1_size(), kCapacity);

  // New blocks read twice crowd T2: its LRU blocks (the first hot ones) go to
  // B2, and re-reading one of those shrinks p again.
  for (uint64_t b = 2000; b < 2040; ++b) {
    access(index, b);
    access(index, b);
  }
  const double p_high = arc.target_t1();
  ASSERT_GT(p_high, 0.0);
  ASSERT_TRUE(arc.in_b2(2039 - kCapacity)) << "evicted from T2 into B2";
  EXPECT_FALSE(access(index, 2039 - kCapacity));
  EXPECT_LT(arc.target_t1(), p_high);
}

TEST(TwoQPolicyTest, A1inAbsorbsCorrelatedReferencesA1outPromotesToAm) {
  constexpr uint32_t kCapacity = 8;  // Kin = 2, Kout = 4
  TierIndex index = make_index(PolicyKind::kTwoQ, kCapacity);
  const auto& q = static_cast<const eviction::TwoQPolicy&>(index.policy());
  access(index, 1);
  EXPECT_TRUE(access(index, 1)) << "a second reference while in A1in is a hit";
  EXPECT_FALSE(q.in_am(index.find(1))) << "... and does not promote (correlated reference)";
  for (uint64_t b = 10; b < 17; ++b) access(index, b);  // fills the tier: 8 blocks in A1in
  EXPECT_EQ(q.a1in_size(), 8u);
  access(index, 17);  // |A1in| > Kin: its oldest, block 1, goes to A1out
  EXPECT_FALSE(resident(index, 1));
  EXPECT_TRUE(q.in_a1out(1));
  EXPECT_FALSE(access(index, 1));  // a miss in A1out: into Am
  EXPECT_TRUE(q.in_am(index.find(1)));
  EXPECT_FALSE(q.in_a1out(1));
  // A1out keeps Kout = 4 numbers: the oldest beyond are forgotten.
  for (uint64_t b = 100; b < 120; ++b) access(index, b);
  uint32_t ghosts = 0;
  for (uint64_t b = 10; b < 120; ++b) ghosts += q.in_a1out(b) ? 1 : 0;
  EXPECT_EQ(ghosts, 4u);
  EXPECT_TRUE(resident(index, 1)) << "Am's block outlives the one-time blocks";
}

// The resident blocks among first..last, in increasing order.
std::vector<uint64_t> resident_of(const TierIndex& index, uint64_t first, uint64_t last) {
  std::vector<uint64_t> out;
  for (uint64_t b = first; b <= last; ++b) {
    if (resident(index, b)) out.push_back(b);
  }
  return out;
}

// SIEVE as the paper's Algorithm 1 reads, over a vector (index 0 the tail,
// the back the head): the engine's SievePolicy must make the same decisions.
TEST(SievePolicyTest, MatchesAVectorBasedSieveOnRandomBlocks) {
  constexpr size_t kCapacity = 50;
  TierIndex index = make_index(PolicyKind::kSieve, kCapacity);
  struct Entry {
    uint64_t block;
    bool visited;
  };
  std::vector<Entry> queue;
  long hand = -1;  // index into queue; -1: unset
  std::mt19937 rng(13);
  for (int i = 0; i < 50000; ++i) {
    const uint64_t block = rng() % 4 == 0 ? rng() % 20 : rng() % 150;
    const auto it = std::find_if(queue.begin(), queue.end(), [&](const Entry& e) { return e.block == block; });
    const bool expected_hit = it != queue.end();
    if (expected_hit) {
      it->visited = true;
    } else {
      if (queue.size() == kCapacity) {
        size_t o = hand < 0 ? 0 : static_cast<size_t>(hand);
        while (queue[o].visited) {
          queue[o].visited = false;
          o = o + 1 == queue.size() ? 0 : o + 1;
        }
        hand = o + 1 < queue.size() ? static_cast<long>(o) : -1;  // the next block shifts into o
        queue.erase(queue.begin() + static_cast<long>(o));
      }
      queue.push_back({block, false});
    }
    ASSERT_EQ(access(index, block), expected_hit) << "access " << i;
  }
  EXPECT_EQ(index.size(), kCapacity);
}

// SIEVE (NSDI 2024, Algorithm 1): a scan of one-hit wonders leaves before the
// visited blocks, however long it is: the hand stays among the new blocks
// (quick demotion) and never reaches the visited ones behind it.
TEST(SievePolicyTest, AOneHitWonderScanLeavesBeforeTheVisitedBlocks) {
  constexpr uint32_t kCapacity = 10, kHot = 4;
  TierIndex index = make_index(PolicyKind::kSieve, kCapacity);
  for (uint64_t b = 0; b < kHot; ++b) access(index, b);
  for (uint64_t b = 0; b < kHot; ++b) EXPECT_TRUE(access(index, b));  // visited
  for (uint64_t b = 1000; b < 1000 + 10 * kCapacity; ++b) EXPECT_FALSE(access(index, b));
  for (uint64_t b = 0; b < kHot; ++b) EXPECT_TRUE(resident(index, b)) << "visited block " << b;
  // The tier holds the hot blocks and the newest one-hit wonders.
  EXPECT_EQ(resident_of(index, 1000, 1000 + 10 * kCapacity).size(), kCapacity - kHot);
  EXPECT_EQ(index.size(), kCapacity);
}

// A visited block survives one pass of the hand (its bit cleared) and leaves
// on the next pass unless hit again meanwhile.
TEST(SievePolicyTest, AVisitedBlockSurvivesOnePassOfTheHandThenGoesIfNotHitAgain) {
  for (const bool hit_again : {false, true}) {
    TierIndex index = make_index(PolicyKind::kSieve, 3);
    const auto& sieve = static_cast<const eviction::SievePolicy&>(index.policy());
    for (uint64_t b : {1, 2, 3}) access(index, b);  // queue, tail first: 1 2 3
    EXPECT_TRUE(access(index, 1));
    access(index, 4);  // hand at 1: visited, cleared; 2 is the victim; hand on 3
    EXPECT_EQ(resident_of(index, 1, 9), (std::vector<uint64_t>{1, 3, 4}));
    EXPECT_FALSE(sieve.visited(index.find(1))) << "the hand cleared its bit";
    EXPECT_EQ(sieve.hand(), index.find(3));
    EXPECT_TRUE(access(index, 3));
    EXPECT_TRUE(access(index, 4));
    if (hit_again) {
      EXPECT_TRUE(access(index, 1));
    }
    // The hand clears 3 and 4, wraps past the head to the tail (1) ...
    access(index, 5);
    if (hit_again) {
      // ... where 1 was visited again: cleared, and 3 (cleared before) goes.
      EXPECT_EQ(resident_of(index, 1, 9), (std::vector<uint64_t>{1, 4, 5}));
    } else {
      // ... where 1, not hit since the last pass, is the victim.
      EXPECT_EQ(resident_of(index, 1, 9), (std::vector<uint64_t>{3, 4, 5}));
    }
  }
}

// The next eviction starts where the hand stopped, not at the tail.
TEST(SievePolicyTest, TheHandResumesWhereItStoppedNotAtTheTail) {
  TierIndex index = make_index(PolicyKind::kSieve, 4);
  const auto& sieve = static_cast<const eviction::SievePolicy&>(index.policy());
  for (uint64_t b : {1, 2, 3, 4}) access(index, b);
  EXPECT_EQ(sieve.hand(), TierIndex::kNoSlot) << "unset until the first eviction";
  access(index, 1);
  access(index, 5);  // clears 1, evicts 2; hand on 3
  EXPECT_EQ(resident_of(index, 1, 9), (std::vector<uint64_t>{1, 3, 4, 5}));
  access(index, 6);  // the hand is on 3: 3 goes, 1 (the tail, not visited) stays
  EXPECT_EQ(resident_of(index, 1, 9), (std::vector<uint64_t>{1, 4, 5, 6}));
  access(index, 7);
  EXPECT_EQ(resident_of(index, 1, 9), (std::vector<uint64_t>{1, 5, 6, 7}));
}

// A block erased under the hand (an I/O failed) moves the hand one step toward
// the head first; the freed slot, reused by the next block, is not the hand.
TEST(SievePolicyTest, EraseOfTheBlockUnderTheHandMovesTheHandOn) {
  TierIndex index = make_index(PolicyKind::kSieve, 4);
  const auto& sieve = static_cast<const eviction::SievePolicy&>(index.policy());
  for (uint64_t b : {1, 2, 3, 4}) access(index, b);
  access(index, 1);
  access(index, 5);  // evicts 2; hand on 3
  const uint32_t slot3 = index.find(3);
  ASSERT_EQ(sieve.hand(), slot3);
  index.pin(slot3);
  index.unpin(slot3, /*drop=*/true);
  EXPECT_EQ(sieve.hand(), index.find(4));
  EXPECT_EQ(index.insert(6).slot, slot3) << "the erased slot is reused";
  access(index, 7);  // the hand is on 4: 4 goes, not 6 in the reused slot
  EXPECT_EQ(resident_of(index, 1, 9), (std::vector<uint64_t>{1, 5, 6, 7}));

  // Erasing the head under the hand unsets it: the next eviction starts at the tail.
  eviction::SievePolicy policy;
  struct SlotIsBlock final : eviction::ResidentBlocks {
    uint64_t block_in(uint32_t slot) const override { return slot; }
  } blocks;
  for (uint32_t s = 0; s < 3; ++s) policy.on_insert(s, s);  // tail 0, 1, head 2
  policy.on_hit(0);
  EXPECT_EQ(policy.evict(blocks), 1u);  // 0 cleared, 1 the victim; hand on 2, the head
  EXPECT_EQ(policy.hand(), 2u);
  policy.on_erase(2);
  EXPECT_EQ(policy.hand(), eviction::EvictionPolicy::kNoSlot);
  policy.on_insert(3, 3);
  EXPECT_EQ(policy.evict(blocks), 0u) << "from the tail again";
}

TEST(SievePolicyTest, EvictionOrderStartsAtTheHandAndAdoptKeepsIt) {
  TierIndex index = make_index(PolicyKind::kSieve, 5);
  for (uint64_t b : {1, 2, 3, 4, 5}) access(index, b);
  access(index, 1);
  access(index, 6);  // clears 1, evicts 2; hand on 3; queue tail first: 1 3 4 5 6
  access(index, 4);
  struct Blocks final : eviction::ResidentBlocks {
    explicit Blocks(const TierIndex& i) : index(i) {}
    uint64_t block_in(uint32_t slot) const override {
      for (uint64_t b = 0; b < 10; ++b) {
        if (index.find(b) == slot) return b;
      }
      return UINT64_MAX;
    }
    const TierIndex& index;
  } blocks(index);
  auto order = [&] {
    std::vector<eviction::ResidentEntry> out;
    index.policy().eviction_order(blocks, &out);
    std::vector<std::pair<uint64_t, bool>> got;
    for (const auto& e : out) got.emplace_back(e.block, e.frequent);
    return got;
  };
  using Order = std::vector<std::pair<uint64_t, bool>>;
  EXPECT_EQ(order(), (Order{{3, false}, {4, true}, {5, false}, {6, false}, {1, false}}));
  // A rebuild (resize to the same capacity) adopts that order: the first entry
  // becomes the tail, the hand is unset and every visited bit 0.
  EXPECT_EQ(index.resize(5), 0u);
  EXPECT_EQ(order(), (Order{{3, false}, {4, false}, {5, false}, {6, false}, {1, false}}));
  access(index, 7);
  access(index, 8);
  EXPECT_EQ(resident_of(index, 1, 9), (std::vector<uint64_t>{1, 5, 6, 7, 8}));
}

TEST(TierIndexTest, APinnedVictimLeavesAtOnceAndItsSlotIsFreedByTheLastUnpin) {
  TierIndex index = make_index(PolicyKind::kLru, 2, /*staging=*/1);
  const uint32_t a = index.insert(10).slot;
  const uint32_t b = index.insert(11).slot;
  index.pin(a);  // an I/O in flight uses block 10, the LRU victim
  const TierIndex::Insertion c = index.insert(12);
  EXPECT_TRUE(c.evicted);
  EXPECT_EQ(c.evicted_block, 10u);
  EXPECT_FALSE(resident(index, 10)) << "evicted as LRU says, though pinned";
  EXPECT_NE(c.slot, a) << "the pinned slot is not reused while in flight";
  EXPECT_NE(c.slot, b);
  EXPECT_EQ(index.retiring(), 1u);
  EXPECT_EQ(index.size(), 2u);
  // No staging slot left: block 13 evicts 11 (unpinned) and reuses its slot.
  const TierIndex::Insertion d = index.insert(13);
  EXPECT_EQ(d.slot, b);
  index.pin(d.slot);
  index.pin(c.slot);
  // Both resident blocks pinned and the staging slot taken: 14 evicts 12 but
  // finds no slot, so it is not inserted.
  const TierIndex::Insertion e = index.insert(14);
  EXPECT_TRUE(e.evicted);
  EXPECT_EQ(e.slot, TierIndex::kNoSlot);
  EXPECT_EQ(index.size(), 1u);
  index.unpin(a);  // the I/O on block 10 completes: its slot is free again
  EXPECT_EQ(index.retiring(), 1u);
  const TierIndex::Insertion f = index.insert(15);
  EXPECT_FALSE(f.evicted) << "one block below capacity";
  EXPECT_EQ(f.slot, a);
}

TEST(TierIndexTest, DropUndoesAnInsertionWithoutAGhost) {
  TierIndex index = make_index(PolicyKind::kS3Fifo, 10);
  const auto& s3 = static_cast<const eviction::S3FifoPolicy&>(index.policy());
  const uint32_t slot = index.insert(7).slot;
  index.pin(slot);
  index.unpin(slot, /*drop=*/true);
  EXPECT_FALSE(resident(index, 7));
  EXPECT_FALSE(s3.in_ghost(7));
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(index.retiring(), 0u);
  EXPECT_EQ(index.insert(8).slot, slot) << "the dropped slot is reused";
}

// Every policy: with staging room for every block in flight, hits and misses
// are exactly those of the same policy with nothing in flight, while no slot
// an in-flight access uses is ever handed to another block.
class PinnedSlotsTest : public ::testing::TestWithParam<PolicyKind> {};

TEST_P(PinnedSlotsTest, HitsFollowThePolicyAtQueueDepth16AndPinnedSlotsAreNeverReused) {
  constexpr uint32_t kCapacity = 24, kDepth = 16;
  TierIndex alone = make_index(GetParam(), kCapacity);
  TierIndex busy = make_index(GetParam(), kCapacity, /*staging=*/kDepth);
  std::deque<std::pair<uint32_t, uint64_t>> in_flight;  // (slot, block) pinned, oldest first
  std::vector<int> pins_of_slot(kCapacity + kDepth, 0);
  std::mt19937 rng(5);
  uint64_t hits = 0;
  for (int i = 0; i < 30000; ++i) {
    // Skewed reuse: a small hot range, a larger warm one, and cold blocks.
    const uint32_t r = rng() % 10;
    const uint64_t block = r < 5 ? rng() % 16 : r < 8 ? 100 + rng() % 64 : 10000 + rng() % 100000;
    bool conflict = false;  // the engine's caller serializes I/Os on one block
    for (const auto& f : in_flight) conflict |= f.second == block;
    if (conflict) continue;
    const bool expected = access(alone, block);
    uint32_t slot = busy.find(block);
    if (slot != TierIndex::kNoSlot) {
      busy.touch(slot);
    } else {
      slot = busy.insert(block).slot;
      ASSERT_NE(slot, TierIndex::kNoSlot) << "staging room for every block in flight";
      ASSERT_EQ(pins_of_slot[slot], 0) << "slot " << slot << " reused while in flight";
    }
    ASSERT_EQ(busy.find(block), slot);
    hits += expected ? 1 : 0;
    busy.pin(slot);
    ++pins_of_slot[slot];
    in_flight.emplace_back(slot, block);
    ASSERT_LE(busy.size(), kCapacity);
    if (in_flight.size() == kDepth || rng() % 3 == 0) {  // completions, in any order
      const size_t k = rng() % in_flight.size();
      busy.unpin(in_flight[k].first);
      --pins_of_slot[in_flight[k].first];
      in_flight.erase(in_flight.begin() + static_cast<long>(k));
    }
  }
  // The index under pins made the same hit/miss decisions: compare the final
  // resident sets too.
  for (uint64_t b = 0; b < 200; ++b) EXPECT_EQ(resident(busy, b), resident(alone, b)) << b;
  EXPECT_GT(hits, 0u);
}

INSTANTIATE_TEST_SUITE_P(EveryPolicy, PinnedSlotsTest,
                         ::testing::ValuesIn(eviction::all_policies()),
                         [](const ::testing::TestParamInfo<PolicyKind>& info) {
                           std::string name(eviction::policy_name(info.param));
                           return name == "2q" ? std::string("twoq") : name;
                         });

TEST(TierIndexTest, DropIfTakesOutMatchingUnpinnedBlocksWithoutAnEviction) {
  for (const PolicyKind kind : eviction::all_policies()) {
    TierIndex index(8, 8, eviction::make_policy(kind, 8));
    for (uint64_t b = 0; b < 8; ++b) access(index, b);
    index.pin(index.find(2));
    EXPECT_EQ(index.drop_if([](uint64_t block) { return block % 2 == 0; }), 3u) << "a pinned block stays";
    EXPECT_EQ(index.size(), 5u);
    EXPECT_TRUE(resident(index, 2));
    EXPECT_FALSE(resident(index, 4));
    // The room freed takes new blocks without an eviction.
    for (uint64_t b = 100; b < 103; ++b) EXPECT_FALSE(index.insert(b).evicted);
    EXPECT_EQ(index.size(), 8u);
  }
}

}  // namespace
}  // namespace tierwise::cache
