#include "sampling/reuse_distance_stack.hpp"

#include <algorithm>

namespace tierwise::sampling {

ReuseDistanceStack::Reference ReuseDistanceStack::reference(uint64_t key, bool write, int32_t epoch) {
  if (clock_ == tree_.size() - 1) compact();
  const int32_t clipped = std::clamp(epoch, 0, kMaxEpoch);
  Reference out;
  auto [it, inserted] = last_access_.try_emplace(key, Entry{clock_, Marks{}});
  if (!inserted) {
    const uint32_t previous = it->second.time;
    out.first = false;
    out.distance = static_cast<uint32_t>(last_access_.size() - prefix_sum(previous));
    out.before = it->second.marks;
    tree_add(previous, -1);
    it->second.time = clock_;
  }
  (write ? it->second.marks.write_epoch : it->second.marks.read_epoch) = clipped;
  tree_add(clock_, 1);
  ++clock_;
  return out;
}

std::optional<ReuseDistanceStack::Marks> ReuseDistanceStack::remove(uint64_t key) {
  const auto it = last_access_.find(key);
  if (it == last_access_.end()) return std::nullopt;
  const Marks marks = it->second.marks;
  tree_add(it->second.time, -1);
  last_access_.erase(it);
  return marks;
}

std::vector<std::pair<uint64_t, ReuseDistanceStack::Marks>> ReuseDistanceStack::by_recency() const {
  std::vector<std::pair<uint32_t, std::pair<uint64_t, Marks>>> by_time;
  by_time.reserve(last_access_.size());
  for (const auto& [key, entry] : last_access_) by_time.push_back({entry.time, {key, entry.marks}});
  std::sort(by_time.begin(), by_time.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<uint64_t, Marks>> out;
  out.reserve(by_time.size());
  for (const auto& [time, block] : by_time) out.push_back(block);
  return out;
}

bool ReuseDistanceStack::push(uint64_t key, Marks marks) {
  if (clock_ == tree_.size() - 1) compact();
  if (!last_access_.try_emplace(key, Entry{clock_, marks}).second) return false;
  tree_add(clock_, 1);
  ++clock_;
  return true;
}

void ReuseDistanceStack::tree_add(uint32_t time, int32_t delta) {
  for (size_t i = size_t{time} + 1; i < tree_.size(); i += i & (~i + 1)) tree_[i] += delta;
}

uint32_t ReuseDistanceStack::prefix_sum(uint32_t time) const {
  int64_t sum = 0;
  for (size_t i = size_t{time} + 1; i > 0; i -= i & (~i + 1)) sum += tree_[i];
  return static_cast<uint32_t>(sum);
}

void ReuseDistanceStack::compact() {
  const size_t n = last_access_.size();
  // Live times in order: a block's new time is its rank among them.
  std::vector<Entry*> by_time;
  by_time.reserve(n);
  for (auto& [key, entry] : last_access_) by_time.push_back(&entry);
  std::sort(by_time.begin(), by_time.end(), [](const Entry* a, const Entry* b) { return a->time < b->time; });
  for (size_t rank = 0; rank < n; ++rank) by_time[rank]->time = static_cast<uint32_t>(rank);
  tree_.assign(std::max<size_t>(kMinCapacity, 2 * n) + 1, 0);
  for (size_t i = 1; i <= n; ++i) tree_[i] = 1;  // one mark at each time 0..n-1
  for (size_t i = 1; i < tree_.size(); ++i) {    // O(capacity) build
    const size_t parent = i + (i & (~i + 1));
    if (parent < tree_.size()) tree_[parent] += tree_[i];
  }
  clock_ = static_cast<uint32_t>(n);
}

}  // namespace tierwise::sampling
