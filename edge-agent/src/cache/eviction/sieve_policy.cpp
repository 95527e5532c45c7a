#include "cache/eviction/sieve_policy.hpp"

namespace tierwise::cache::eviction {

uint32_t SievePolicy::step_wrapping(uint32_t slot) const {
  const uint32_t next = lists_.newer(slot);
  return next != SlotLists::kNone ? next : lists_.back(kQueue);
}

uint32_t SievePolicy::evict(const ResidentBlocks&) {
  if (lists_.size(kQueue) == 0) return kNoSlot;
  uint32_t victim = hand_ != SlotLists::kNone ? hand_ : lists_.back(kQueue);
  while (visited_[victim] != 0) {
    visited_[victim] = 0;
    victim = step_wrapping(victim);
  }
  hand_ = lists_.newer(victim);  // kNone when the victim is the head
  lists_.remove(victim);
  return victim;
}

void SievePolicy::on_insert(uint32_t slot, uint64_t) {
  if (slot >= visited_.size()) visited_.resize(slot + 1);
  visited_[slot] = 0;
  lists_.push_front(kQueue, slot);
}

void SievePolicy::on_erase(uint32_t slot) {
  if (slot == hand_) hand_ = lists_.newer(slot);
  lists_.remove(slot);
}

void SievePolicy::eviction_order(const ResidentBlocks& blocks, std::vector<ResidentEntry>* out) const {
  const uint32_t start = hand_ != SlotLists::kNone ? hand_ : lists_.back(kQueue);
  if (start == SlotLists::kNone) return;
  uint32_t s = start;
  do {
    out->push_back({s, blocks.block_in(s), visited_[s] != 0});
    s = step_wrapping(s);
  } while (s != start);
}

void SievePolicy::adopt(const std::vector<ResidentEntry>& entries) {
  for (const ResidentEntry& e : entries) on_insert(e.slot, e.block);
  hand_ = SlotLists::kNone;
}

}  // namespace tierwise::cache::eviction
