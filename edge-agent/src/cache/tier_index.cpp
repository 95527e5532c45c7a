#include "cache/tier_index.hpp"

#include <algorithm>

namespace tierwise::cache {

TierIndex::TierIndex(uint32_t capacity_slots, uint32_t slot_limit,
                     std::unique_ptr<eviction::EvictionPolicy> policy)
    : capacity_(capacity_slots),
      slot_limit_(std::max(capacity_slots, slot_limit)),
      staging_(slot_limit_ - capacity_slots),
      policy_(std::move(policy)) {}

uint32_t TierIndex::take_free_slot() {
  if (!free_.empty()) {
    const uint32_t slot = free_.back();
    free_.pop_back();
    return slot;
  }
  if (slots_.size() < slot_limit_) {
    slots_.emplace_back();
    return static_cast<uint32_t>(slots_.size() - 1);
  }
  return kNoSlot;
}

void TierIndex::release(uint32_t slot) {
  slots_[slot].state = State::kFree;
  free_.push_back(slot);
}

uint32_t TierIndex::unheld_victim() {
  uint32_t victim = policy_->evict(*this);
  for (uint32_t tries = 0; victim != kNoSlot && slots_[victim].held; ++tries) {
    policy_->on_insert(victim, slots_[victim].block);  // stays resident
    if (tries >= held_) return kNoSlot;
    victim = policy_->evict(*this);
  }
  return victim;
}

bool TierIndex::evict_slot(uint32_t victim, uint64_t* evicted_block) {
  Slot& v = slots_[victim];
  *evicted_block = v.block;
  map_.erase(v.block);
  if (v.pins == 0) return true;
  v.state = State::kRetiring;  // freed by its last unpin
  ++retiring_;
  return false;
}

uint32_t TierIndex::trim() {
  uint32_t evicted = 0;
  // Stops when every resident block is held (dirty): none may leave before its destage.
  while (map_.size() > capacity_ && map_.size() > held_) {
    const uint32_t victim = held_ == 0 ? policy_->evict(*this) : unheld_victim();
    if (victim == kNoSlot) break;
    uint64_t block = 0;
    if (evict_slot(victim, &block)) release(victim);
    ++evicted;
  }
  return evicted;
}

uint32_t TierIndex::resize(uint32_t capacity_slots) {
  capacity_ = std::max<uint32_t>(1, capacity_slots);
  slot_limit_ = std::max(slot_limit_, capacity_ + staging_);
  const uint32_t evicted = trim();  // by the old policy's order
  rebuild_policy(policy_->kind());  // its queue shares follow the capacity
  return evicted;
}

void TierIndex::switch_policy(eviction::PolicyKind kind) {
  if (kind != policy_->kind()) rebuild_policy(kind);
}

uint32_t TierIndex::drop_if(const std::function<bool(uint64_t)>& leaves) {
  uint32_t dropped = 0;
  for (uint32_t slot = 0; slot < slots_.size(); ++slot) {
    Slot& s = slots_[slot];
    if (s.state != State::kResident || s.pins != 0 || s.held || !leaves(s.block)) continue;
    map_.erase(s.block);
    policy_->on_erase(slot);
    release(slot);
    ++dropped;
  }
  return dropped;
}

void TierIndex::rebuild_policy(eviction::PolicyKind kind) {
  std::vector<eviction::ResidentEntry> order;
  order.reserve(map_.size());
  policy_->eviction_order(*this, &order);
  policy_ = eviction::make_policy(kind, capacity_);
  policy_->adopt(order);
}

TierIndex::Insertion TierIndex::insert(uint64_t block) {
  Insertion ins;
  policy_->on_miss(block);
  uint32_t slot = kNoSlot;
  if (map_.size() >= capacity_) {
    const uint32_t victim = held_ == 0 ? policy_->evict(*this) : unheld_victim();
    if (victim == kNoSlot && held_ > 0) return ins;  // every candidate is dirty
    if (victim != kNoSlot) {
      ins.evicted = true;
      if (evict_slot(victim, &ins.evicted_block)) slot = victim;  // reused at once
    }
  }
  if (slot == kNoSlot) slot = take_free_slot();
  if (slot == kNoSlot) return ins;
  slots_[slot] = Slot{block, 0, State::kResident, false};
  map_.insert(block, slot);
  policy_->on_insert(slot, block);
  ins.slot = slot;
  return ins;
}

void TierIndex::unpin(uint32_t slot, bool drop) {
  Slot& s = slots_[slot];
  --s.pins;
  if (s.state == State::kResident && drop) {
    map_.erase(s.block);
    policy_->on_erase(slot);
    s.state = State::kRetiring;
    ++retiring_;
  }
  if (s.state == State::kRetiring && s.pins == 0) {
    --retiring_;
    release(slot);
  }
}

}  // namespace tierwise::cache
