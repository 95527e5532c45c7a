#include "sampling/distinct_block_sketch.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tierwise::sampling {

DistinctBlockSketch::DistinctBlockSketch(unsigned precision) : precision_(precision) {
  if (precision < kMinPrecision || precision > kMaxPrecision) {
    throw std::invalid_argument("HyperLogLog precision must be in " + std::to_string(kMinPrecision) +
                                ".." + std::to_string(kMaxPrecision) + ", got " +
                                std::to_string(precision));
  }
}

void DistinctBlockSketch::raise(uint32_t index, uint8_t value) {
  if (!dense_.empty()) {
    uint8_t& r = dense_[index];
    if ((r & ~kChanged) >= value) return;
    if ((r & kChanged) == 0) changed_.push_back(index);
    r = value | kChanged;
    return;
  }
  const uint32_t key = index << 8;
  auto it = std::lower_bound(sparse_.begin(), sparse_.end(), key);
  if (it != sparse_.end() && (*it >> 8) == index) {
    if ((*it & ~kChanged & 0xFF) >= value) return;
    *it = key | value | kChanged;
    return;
  }
  sparse_.insert(it, key | value | kChanged);
  if (sparse_.size() > (size_t{1} << precision_) / 16) make_dense();
}

void DistinctBlockSketch::make_dense() {
  dense_.assign(size_t{1} << precision_, 0);
  for (uint32_t entry : sparse_) {
    const uint32_t index = entry >> 8;
    dense_[index] = static_cast<uint8_t>(entry);
    if (entry & kChanged) changed_.push_back(index);
  }
  sparse_ = {};
}

void DistinctBlockSketch::take_updates(std::vector<uint32_t>& out) {
  if (dense_.empty()) {
    for (uint32_t& entry : sparse_) {
      if ((entry & kChanged) == 0) continue;
      entry &= ~uint32_t{kChanged};
      out.push_back(entry);
    }
    return;
  }
  std::sort(changed_.begin(), changed_.end());
  for (uint32_t index : changed_) {
    dense_[index] &= ~kChanged;
    out.push_back(index << 8 | dense_[index]);
  }
  changed_.clear();
}

}  // namespace tierwise::sampling
