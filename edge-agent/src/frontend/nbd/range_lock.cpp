#include "frontend/nbd/range_lock.hpp"

#include <algorithm>

namespace tierwise::frontend::nbd {

bool RangeLock::conflicts_with_held(const Range* r) const {
  return std::any_of(held_.begin(), held_.end(), [r](const Range* h) { return overlap(h, r); });
}

bool RangeLock::acquire(Range* range) {
  const bool behind_waiter = std::any_of(waiting_.begin(), waiting_.end(),
                                         [range](const Range* w) { return overlap(w, range); });
  if (!behind_waiter && !conflicts_with_held(range)) {
    held_.push_back(range);
    return true;
  }
  waiting_.push_back(range);
  return false;
}

void RangeLock::release(Range* range, std::vector<Range*>* granted) {
  auto it = std::find(held_.begin(), held_.end(), range);
  if (it != held_.end()) {
    *it = held_.back();
    held_.pop_back();
  }
  for (size_t i = 0; i < waiting_.size();) {
    Range* w = waiting_[i];
    bool blocked = conflicts_with_held(w);
    for (size_t j = 0; j < i && !blocked; ++j) blocked = overlap(waiting_[j], w);
    if (blocked) {
      ++i;
      continue;
    }
    held_.push_back(w);
    granted->push_back(w);
    waiting_.erase(waiting_.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

}  // namespace tierwise::frontend::nbd
