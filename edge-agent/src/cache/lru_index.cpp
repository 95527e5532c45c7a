#include "cache/lru_index.hpp"

namespace tierwise::cache {

uint32_t LruIndex::find(uint64_t block) const {
  const auto it = map_.find(block);
  return it == map_.end() ? kNoSlot : it->second;
}

void LruIndex::unlink(uint32_t slot) {
  Slot& s = slots_[slot];
  if (s.prev != kNoSlot) slots_[s.prev].next = s.next; else head_ = s.next;
  if (s.next != kNoSlot) slots_[s.next].prev = s.prev; else tail_ = s.prev;
  s.prev = s.next = kNoSlot;
}

void LruIndex::push_front(uint32_t slot) {
  Slot& s = slots_[slot];
  s.prev = kNoSlot;
  s.next = head_;
  if (head_ != kNoSlot) slots_[head_].prev = slot; else tail_ = slot;
  head_ = slot;
}

void LruIndex::touch(uint32_t slot) {
  if (head_ == slot) return;
  unlink(slot);
  push_front(slot);
}

uint32_t LruIndex::take_slot(Insertion& ins) {
  if (!free_.empty()) {
    const uint32_t slot = free_.back();
    free_.pop_back();
    return slot;
  }
  if (slots_.size() < capacity_) {
    slots_.emplace_back();
    return static_cast<uint32_t>(slots_.size() - 1);
  }
  uint32_t victim = tail_;
  while (victim != kNoSlot && slots_[victim].pins > 0) victim = slots_[victim].prev;
  if (victim == kNoSlot) return kNoSlot;
  ins.evicted = true;
  ins.evicted_block = slots_[victim].block;
  map_.erase(slots_[victim].block);
  unlink(victim);
  return victim;
}

LruIndex::Insertion LruIndex::insert(uint64_t block) {
  Insertion ins;
  ins.slot = take_slot(ins);
  if (ins.slot == kNoSlot) return ins;
  slots_[ins.slot].block = block;
  slots_[ins.slot].pins = 0;
  map_.emplace(block, ins.slot);
  push_front(ins.slot);
  return ins;
}

void LruIndex::erase(uint32_t slot) {
  map_.erase(slots_[slot].block);
  unlink(slot);
  free_.push_back(slot);
}

}  // namespace tierwise::cache
