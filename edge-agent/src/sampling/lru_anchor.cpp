#include "sampling/lru_anchor.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

namespace tierwise::sampling {

LruAnchor::LruAnchor(uint32_t blocks) : capacity_(blocks) {
  if (blocks < 1 || blocks >= kNone) {
    throw std::invalid_argument("LRU anchor size must be 1 .. " + std::to_string(kNone - 1) + " blocks, got " +
                                std::to_string(blocks));
  }
  const size_t buckets = std::bit_ceil(size_t{blocks} * 2);  // chains of 1.25 slots on average when full
  shift_ = 64 - static_cast<unsigned>(std::countr_zero(buckets));
  bucket_head_ = std::make_unique<uint16_t[]>(buckets);
  std::fill_n(bucket_head_.get(), buckets, kNone);
  slots_ = std::make_unique<Slot[]>(blocks);
}

uint64_t LruAnchor::take_hits(size_t keep) {
  if (keep > queued_) {
    throw std::invalid_argument("cannot keep " + std::to_string(keep) + " of " + std::to_string(queued_) +
                                " queued references");
  }
  run_queue(queued_ - keep);
  const uint64_t hits = hits_;
  hits_ = 0;
  return hits;
}

void LruAnchor::run_queue(size_t n) {
  for (size_t i = 0; i < n; ++i) hits_ += reference(queue_[i]) ? 1 : 0;
  std::copy(queue_.begin() + static_cast<std::ptrdiff_t>(n), queue_.begin() + static_cast<std::ptrdiff_t>(queued_),
            queue_.begin());
  queued_ -= n;
}

}  // namespace tierwise::sampling
