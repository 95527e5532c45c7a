// Fenwick (binary indexed) tree of counts: point update and prefix sum in
// O(log n) (Fenwick, "A new data structure for cumulative frequency tables",
// Software: Practice and Experience 24(3), 1994).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tierwise::analysis {

class FenwickTree {
 public:
  explicit FenwickTree(size_t size = 0) : tree_(size, 0) {}

  size_t size() const { return tree_.size(); }

  // Resets to `size` positions where positions [0, ones) hold 1 and the rest 0,
  // in O(size).
  void assign_ones(size_t size, size_t ones) {
    tree_.assign(size, 0);
    for (size_t i = 0; i < size; ++i) {
      if (i < ones) tree_[i] += 1;
      size_t parent = i | (i + 1);
      if (parent < size) tree_[parent] += tree_[i];
    }
  }

  // Adds `delta` at `index` (< size()).
  void add(size_t index, int64_t delta) {
    for (; index < tree_.size(); index |= index + 1) tree_[index] += delta;
  }

  // Sum of positions [0, index], index < size().
  int64_t prefix_sum(size_t index) const {
    int64_t sum = 0;
    for (size_t i = index + 1; i > 0; i &= i - 1) sum += tree_[i - 1];
    return sum;
  }

 private:
  std::vector<int64_t> tree_;
};

}  // namespace tierwise::analysis
