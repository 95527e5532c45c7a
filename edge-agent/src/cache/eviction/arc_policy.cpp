#include "cache/eviction/arc_policy.hpp"

#include <algorithm>

namespace tierwise::cache::eviction {

ArcPolicy::ArcPolicy(uint32_t capacity_slots)
    : c_(capacity_slots), lists_(2), b1_(capacity_slots), b2_(capacity_slots) {}

void ArcPolicy::on_miss(uint64_t block) {
  evict_t1_without_ghost_ = false;
  const double b1 = b1_.size(), b2 = b2_.size();
  if (b1_.remove(block)) {
    miss_ = Miss::kInB1;
    p_ = std::min(c_, p_ + std::max(b2 / b1, 1.0));
    return;
  }
  if (b2_.remove(block)) {
    miss_ = Miss::kInB2;
    p_ = std::max(0.0, p_ - std::max(b1 / b2, 1.0));
    return;
  }
  miss_ = Miss::kNew;
  const double t1 = lists_.size(kT1), t2 = lists_.size(kT2);
  if (t1 + b1 >= c_) {
    if (t1 < c_) {
      b1_.pop_oldest();
    } else {
      evict_t1_without_ghost_ = true;
    }
  } else if (t1 + t2 + b1 + b2 >= 2 * c_) {
    b2_.pop_oldest();
  }
}

uint32_t ArcPolicy::take_lru(uint8_t list, GhostList* ghost, const ResidentBlocks& blocks) {
  const uint32_t victim = lists_.back(list);
  lists_.remove(victim);
  if (ghost != nullptr) ghost->push(blocks.block_in(victim));
  return victim;
}

uint32_t ArcPolicy::evict(const ResidentBlocks& blocks) {
  const uint32_t t1 = lists_.size(kT1), t2 = lists_.size(kT2);
  if (t1 + t2 == 0) return kNoSlot;
  if (evict_t1_without_ghost_ && t1 > 0) return take_lru(kT1, nullptr, blocks);
  const bool from_t1 =
      t1 >= 1 && (static_cast<double>(t1) > p_ || (miss_ == Miss::kInB2 && t1 == p_));
  if (from_t1 || t2 == 0) return take_lru(kT1, &b1_, blocks);
  return take_lru(kT2, &b2_, blocks);
}

void ArcPolicy::on_insert(uint32_t slot, uint64_t) {
  lists_.push_front(miss_ == Miss::kNew ? kT1 : kT2, slot);
  miss_ = Miss::kNew;
}

void ArcPolicy::eviction_order(const ResidentBlocks& blocks, std::vector<ResidentEntry>* out) const {
  lists_.for_each_oldest_first(kT1, [&](uint32_t s) { out->push_back({s, blocks.block_in(s), false}); });
  lists_.for_each_oldest_first(kT2, [&](uint32_t s) { out->push_back({s, blocks.block_in(s), true}); });
}

void ArcPolicy::adopt(const std::vector<ResidentEntry>& entries) {
  for (const ResidentEntry& e : entries) lists_.push_front(e.frequent ? kT2 : kT1, e.slot);
}

}  // namespace tierwise::cache::eviction
