// 2Q: Johnson and Shasha, "2Q: A Low Overhead High Performance Buffer
// Management Replacement Algorithm", VLDB 1994 (the full version, section 2.2).
#pragma once

#include <cstdint>

#include "cache/eviction/eviction_policy.hpp"
#include "cache/eviction/ghost_list.hpp"
#include "cache/eviction/slot_lists.hpp"

namespace tierwise::cache::eviction {

/*
 * A1in: a FIFO of blocks seen once, bounded by Kin = 25 % of the slots;
 * A1out: a FIFO of block numbers evicted from A1in (no data), Kout = 50 % of
 * the slots; Am: an LRU list of blocks re-referenced after leaving A1in. The
 * paper's recommended Kin and Kout ("Kin ... 25% of the page slots and Kout
 * ... 50%"), also libCacheSim's defaults.
 *
 *   hit in Am: move to Am's front. hit in A1in: nothing (correlated
 *   references are not counted twice).
 *   miss in A1out: the block enters Am. other miss: it enters A1in.
 *   evict ("reclaimfor"): A1in's oldest block if |A1in| > Kin, its number
 *   pushed into A1out (dropping A1out's oldest beyond Kout); else Am's LRU block.
 */
class TwoQPolicy final : public EvictionPolicy {
 public:
  static constexpr double kInFraction = 0.25;
  static constexpr double kOutFraction = 0.50;

  explicit TwoQPolicy(uint32_t capacity_slots);
  PolicyKind kind() const override { return PolicyKind::kTwoQ; }
  void on_hit(uint32_t slot) override;
  void on_miss(uint64_t block) override { ghost_hit_ = a1out_.remove(block); }
  uint32_t evict(const ResidentBlocks& blocks) override;
  void on_insert(uint32_t slot, uint64_t block) override;
  void on_erase(uint32_t slot) override { lists_.remove(slot); }
  void eviction_order(const ResidentBlocks& blocks, std::vector<ResidentEntry>* out) const override;
  void adopt(const std::vector<ResidentEntry>& entries) override;

  // Introspection for tests.
  uint32_t a1in_size() const { return lists_.size(kA1in); }
  uint32_t am_size() const { return lists_.size(kAm); }
  bool in_a1out(uint64_t block) const { return a1out_.contains(block); }
  bool in_am(uint32_t slot) const { return lists_.list_of(slot) == kAm; }

 private:
  static constexpr uint8_t kA1in = 0, kAm = 1;

  uint32_t k_in_;
  SlotLists lists_;
  GhostList a1out_;
  bool ghost_hit_ = false;
};

}  // namespace tierwise::cache::eviction
