#include "analysis/exact_lru_mrc.hpp"

#include <algorithm>

namespace tierwise::analysis {
namespace {

constexpr size_t kInitialTimeSlots = size_t{1} << 16;

}  // namespace

ExactLruMrc::ExactLruMrc() : marks_(kInitialTimeSlots), histogram_(1, 0) {}

void ExactLruMrc::access(uint64_t block) {
  if (next_time_ == marks_.size()) compact();
  ++accesses_;
  uint64_t now = next_time_++;
  auto [entry, inserted] = last_access_.try_emplace(block, now);
  if (!inserted) {
    uint64_t previous = entry->second;
    // Blocks whose latest access came after `previous`, plus the block itself.
    auto live = static_cast<int64_t>(last_access_.size());
    auto distance = static_cast<uint64_t>(live - marks_.prefix_sum(previous) + 1);
    if (distance >= histogram_.size()) histogram_.resize(distance + 1, 0);
    ++histogram_[distance];
    marks_.add(previous, -1);
    entry->second = now;
  }
  marks_.add(now, 1);
}

void ExactLruMrc::compact() {
  std::vector<uint64_t*> stamps;
  stamps.reserve(last_access_.size());
  for (auto& [block, time] : last_access_) stamps.push_back(&time);
  std::sort(stamps.begin(), stamps.end(), [](const uint64_t* a, const uint64_t* b) { return *a < *b; });
  for (size_t i = 0; i < stamps.size(); ++i) *stamps[i] = i;
  next_time_ = stamps.size();
  marks_.assign_ones(std::max(kInitialTimeSlots, 2 * stamps.size()), stamps.size());
}

double ExactLruMrc::miss_ratio(uint64_t cache_blocks) const {
  if (accesses_ == 0) return 0.0;
  uint64_t misses = distinct_blocks();
  for (uint64_t d = histogram_.size() - 1; d > cache_blocks; --d) misses += histogram_[d];
  return static_cast<double>(misses) / static_cast<double>(accesses_);
}

std::vector<MrcPoint> ExactLruMrc::curve(std::span<const uint64_t> cache_bytes,
                                         uint64_t block_bytes) const {
  std::vector<MrcPoint> points;
  points.reserve(cache_bytes.size());
  for (uint64_t bytes : cache_bytes) points.push_back({bytes, miss_ratio(bytes / block_bytes)});
  return points;
}

}  // namespace tierwise::analysis
