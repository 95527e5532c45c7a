#include "cache/eviction/s3fifo_policy.hpp"

#include <algorithm>

namespace tierwise::cache::eviction {

S3FifoPolicy::S3FifoPolicy(uint32_t capacity_slots)
    : small_capacity_(std::max<uint32_t>(1, static_cast<uint32_t>(capacity_slots * kSmallFraction))),
      main_capacity_(capacity_slots > small_capacity_ ? capacity_slots - small_capacity_ : 0),
      lists_(2),
      ghost_(static_cast<uint32_t>(capacity_slots * kGhostFraction)) {}

void S3FifoPolicy::on_hit(uint32_t slot) {
  if (freq_[slot] < kMaxFrequency) ++freq_[slot];
}

void S3FifoPolicy::on_insert(uint32_t slot, uint64_t) {
  if (slot >= freq_.size()) freq_.resize(slot + 1);
  freq_[slot] = 0;
  lists_.push_front(ghost_hit_ ? kMain : kSmall, slot);
  ghost_hit_ = false;
}

uint32_t S3FifoPolicy::evict(const ResidentBlocks& blocks) {
  for (;;) {
    if (lists_.size(kSmall) == 0 && lists_.size(kMain) == 0) return kNoSlot;
    if (lists_.size(kMain) > main_capacity_ || lists_.size(kSmall) == 0) return evict_main();
    if (const uint32_t victim = evict_small(blocks); victim != kNoSlot) return victim;
  }
}

uint32_t S3FifoPolicy::evict_main() {
  for (;;) {
    const uint32_t tail = lists_.back(kMain);
    if (freq_[tail] == 0) {
      lists_.remove(tail);
      return tail;
    }
    --freq_[tail];
    lists_.push_front(kMain, tail);  // reinsertion: the 2-bit CLOCK of M
  }
}

uint32_t S3FifoPolicy::evict_small(const ResidentBlocks& blocks) {
  while (lists_.size(kSmall) > 0) {
    const uint32_t tail = lists_.back(kSmall);
    if (freq_[tail] >= kMoveToMainThreshold) {
      freq_[tail] = 0;
      lists_.push_front(kMain, tail);
      continue;
    }
    lists_.remove(tail);
    ghost_.push(blocks.block_in(tail));
    return tail;
  }
  return kNoSlot;
}

void S3FifoPolicy::eviction_order(const ResidentBlocks& blocks, std::vector<ResidentEntry>* out) const {
  lists_.for_each_oldest_first(kSmall, [&](uint32_t s) {
    out->push_back({s, blocks.block_in(s), freq_[s] >= kMoveToMainThreshold});
  });
  lists_.for_each_oldest_first(kMain, [&](uint32_t s) { out->push_back({s, blocks.block_in(s), true}); });
}

void S3FifoPolicy::adopt(const std::vector<ResidentEntry>& entries) {
  for (const ResidentEntry& e : entries) {
    if (e.slot >= freq_.size()) freq_.resize(e.slot + 1);
    freq_[e.slot] = 0;
    lists_.push_front(e.frequent ? kMain : kSmall, e.slot);
  }
}

}  // namespace tierwise::cache::eviction
