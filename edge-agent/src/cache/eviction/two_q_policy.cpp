#include "cache/eviction/two_q_policy.hpp"

namespace tierwise::cache::eviction {

TwoQPolicy::TwoQPolicy(uint32_t capacity_slots)
    : k_in_(static_cast<uint32_t>(capacity_slots * kInFraction)),
      lists_(2),
      a1out_(static_cast<uint32_t>(capacity_slots * kOutFraction)) {}

void TwoQPolicy::on_hit(uint32_t slot) {
  if (lists_.list_of(slot) == kAm) lists_.push_front(kAm, slot);
}

uint32_t TwoQPolicy::evict(const ResidentBlocks& blocks) {
  const bool from_a1in =
      lists_.size(kA1in) > 0 && (lists_.size(kA1in) > k_in_ || lists_.size(kAm) == 0);
  const uint32_t victim = lists_.back(from_a1in ? kA1in : kAm);
  if (victim == SlotLists::kNone) return kNoSlot;
  lists_.remove(victim);
  if (from_a1in) a1out_.push(blocks.block_in(victim));
  return victim;
}

void TwoQPolicy::on_insert(uint32_t slot, uint64_t) {
  lists_.push_front(ghost_hit_ ? kAm : kA1in, slot);
  ghost_hit_ = false;
}

void TwoQPolicy::eviction_order(const ResidentBlocks& blocks, std::vector<ResidentEntry>* out) const {
  lists_.for_each_oldest_first(kA1in, [&](uint32_t s) { out->push_back({s, blocks.block_in(s), false}); });
  lists_.for_each_oldest_first(kAm, [&](uint32_t s) { out->push_back({s, blocks.block_in(s), true}); });
}

void TwoQPolicy::adopt(const std::vector<ResidentEntry>& entries) {
  for (const ResidentEntry& e : entries) lists_.push_front(e.frequent ? kAm : kA1in, e.slot);
}

}  // namespace tierwise::cache::eviction
