// ARC: Megiddo and Modha, "ARC: A Self-Tuning, Low Overhead Replacement
// Cache", FAST 2003 (Figure 4).
#pragma once

#include <cstdint>

#include "cache/eviction/eviction_policy.hpp"
#include "cache/eviction/ghost_list.hpp"
#include "cache/eviction/slot_lists.hpp"

namespace tierwise::cache::eviction {

/*
 * c = the tier's slots. Resident lists T1 (seen once recently) and T2 (seen at
 * least twice), ghost lists B1 and B2 (block numbers evicted from T1 and T2),
 * and the adaptive target p for |T1|, 0 <= p <= c, starting at 0.
 *
 *   hit in T1 or T2: move to T2's MRU end (case I).
 *   miss in B1: p += max(|B2| / |B1|, 1), capped at c (case II);
 *   miss in B2: p -= max(|B1| / |B2|, 1), floored at 0 (case III);
 *               both then REPLACE and put the block at T2's MRU end.
 *   other miss (case IV): when |T1| + |B1| = c, drop B1's LRU entry if
 *               |T1| < c, else the victim is T1's LRU block with no ghost;
 *               when the directory holds 2c entries, drop B2's LRU entry;
 *               then REPLACE and put the block at T1's MRU end.
 *   REPLACE: evict T1's LRU block into B1 if |T1| > p, or |T1| = p and the
 *            block is in B2; else T2's LRU block into B2.
 * p is a real number, as in libCacheSim (the paper leaves int/real open); a
 * scan of blocks seen once fills B1 and never raises p, so T2's blocks stay.
 */
class ArcPolicy final : public EvictionPolicy {
 public:
  explicit ArcPolicy(uint32_t capacity_slots);
  PolicyKind kind() const override { return PolicyKind::kArc; }
  void on_hit(uint32_t slot) override { lists_.push_front(kT2, slot); }
  void on_miss(uint64_t block) override;
  uint32_t evict(const ResidentBlocks& blocks) override;
  void on_insert(uint32_t slot, uint64_t block) override;
  void on_erase(uint32_t slot) override { lists_.remove(slot); }
  void eviction_order(const ResidentBlocks& blocks, std::vector<ResidentEntry>* out) const override;
  void adopt(const std::vector<ResidentEntry>& entries) override;

  // Introspection for tests.
  double target_t1() const { return p_; }
  uint32_t t1_size() const { return lists_.size(kT1); }
  uint32_t t2_size() const { return lists_.size(kT2); }
  uint32_t b1_size() const { return b1_.size(); }
  uint32_t b2_size() const { return b2_.size(); }
  bool in_b2(uint64_t block) const { return b2_.contains(block); }

 private:
  static constexpr uint8_t kT1 = 0, kT2 = 1;
  enum class Miss : uint8_t { kNew, kInB1, kInB2 };
  uint32_t take_lru(uint8_t list, GhostList* ghost, const ResidentBlocks& blocks);

  double c_;
  double p_ = 0;
  SlotLists lists_;
  GhostList b1_, b2_;
  Miss miss_ = Miss::kNew;
  bool evict_t1_without_ghost_ = false;  // case IV with |T1| = c
};

}  // namespace tierwise::cache::eviction
