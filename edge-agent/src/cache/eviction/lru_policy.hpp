// Least recently used: the policy of the exact miss ratio curve (Mattson et
// al., "Evaluation techniques for storage hierarchies", IBM Systems Journal
// 9(2), 1970): one list, hits move to the front, the back is evicted.
#pragma once

#include <cstdint>
#include <vector>

#include "cache/eviction/eviction_policy.hpp"
#include "cache/eviction/slot_lists.hpp"

namespace tierwise::cache::eviction {

class LruPolicy final : public EvictionPolicy {
 public:
  LruPolicy() : lists_(1) {}
  PolicyKind kind() const override { return PolicyKind::kLru; }
  void on_hit(uint32_t slot) override {
    lists_.push_front(0, slot);
    reused_[slot] = 1;
  }
  void on_miss(uint64_t) override {}
  uint32_t evict(const ResidentBlocks&) override {
    const uint32_t victim = lists_.back(0);
    if (victim != SlotLists::kNone) lists_.remove(victim);
    return victim;
  }
  void on_insert(uint32_t slot, uint64_t) override { admit(slot, false); }
  void on_erase(uint32_t slot) override { lists_.remove(slot); }
  // `frequent`: hit since it entered (the order alone decides LRU's victims;
  // the bit is kept for a switch to a policy that uses it).
  void eviction_order(const ResidentBlocks& blocks, std::vector<ResidentEntry>* out) const override {
    lists_.for_each_oldest_first(0, [&](uint32_t s) { out->push_back({s, blocks.block_in(s), reused_[s] != 0}); });
  }
  void adopt(const std::vector<ResidentEntry>& entries) override {
    for (const ResidentEntry& e : entries) admit(e.slot, e.frequent);
  }

 private:
  void admit(uint32_t slot, bool reused) {
    if (slot >= reused_.size()) reused_.resize(slot + 1);
    reused_[slot] = reused ? 1 : 0;
    lists_.push_front(0, slot);
  }
  SlotLists lists_;
  std::vector<uint8_t> reused_;  // per slot: hit since it entered the tier
};

}  // namespace tierwise::cache::eviction
