// The definition of an LRU cache, for the tests to check faster structures
// against: a list of `blocks` block numbers, most recently referenced first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <unordered_map>

namespace tierwise::testing {

class ListLru {
 public:
  explicit ListLru(size_t blocks) : blocks_(blocks) {}

  // True when `block` is among the `blocks` most recently referenced distinct
  // blocks; `block` then heads the list, and the last one leaves when the list
  // grows past `blocks`.
  bool reference(uint64_t block) {
    auto at = where_.find(block);
    const bool hit = at != where_.end();
    if (hit) order_.erase(at->second);
    order_.push_front(block);
    where_[block] = order_.begin();
    if (order_.size() > blocks_) {
      where_.erase(order_.back());
      order_.pop_back();
    }
    return hit;
  }

 private:
  size_t blocks_;
  std::list<uint64_t> order_;
  std::unordered_map<uint64_t, std::list<uint64_t>::iterator> where_;
};

}  // namespace tierwise::testing
