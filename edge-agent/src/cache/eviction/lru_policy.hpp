// Least recently used: the policy of the exact miss ratio curve (Mattson et
// al., "Evaluation techniques for storage hierarchies", IBM Systems Journal
// 9(2), 1970): one list, hits move to the front, the back is evicted.
#pragma once

#include "cache/eviction/eviction_policy.hpp"
#include "cache/eviction/slot_lists.hpp"

namespace tierwise::cache::eviction {

class LruPolicy final : public EvictionPolicy {
 public:
  LruPolicy() : lists_(1) {}
  PolicyKind kind() const override { return PolicyKind::kLru; }
  void on_hit(uint32_t slot) override { lists_.push_front(0, slot); }
  void on_miss(uint64_t) override {}
  uint32_t evict(const ResidentBlocks&) override {
    const uint32_t victim = lists_.back(0);
    if (victim != SlotLists::kNone) lists_.remove(victim);
    return victim;
  }
  void on_insert(uint32_t slot, uint64_t) override { lists_.push_front(0, slot); }
  void on_erase(uint32_t slot) override { lists_.remove(slot); }

 private:
  SlotLists lists_;
};

}  // namespace tierwise::cache::eviction
