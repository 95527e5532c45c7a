// A bounded list of block numbers that were evicted (ghost entries: ids, no
// data), for the policies that learn from recent evictions: S3-FIFO's ghost
// queue G, ARC's B1 and B2, 2Q's A1out.
#pragma once

#include <cstdint>
#include <vector>

#include "cache/eviction/block_map.hpp"

namespace tierwise::cache::eviction {

/*
 * Oldest-first order with O(1) removal of any entry (a ghost hit takes the
 * block out): nodes in a pool with prev/next links and a BlockMap from block to
 * node. Adding to a full list drops the oldest entry first. Capacity 0 keeps
 * nothing. Storage grows geometrically up to the capacity, never per access.
 */
class GhostList {
 public:
  explicit GhostList(uint32_t capacity) : capacity_(capacity) {}

  // Adds `block` (which must not be in the list) as the newest entry.
  void push(uint64_t block);
  // Removes `block`; returns whether it was in the list (a ghost hit).
  bool remove(uint64_t block);
  // Removes the oldest entry; no-op when empty.
  void pop_oldest();
  bool contains(uint64_t block) const { return map_.find(block) != BlockMap::kAbsent; }

  uint32_t size() const { return map_.size(); }
  uint32_t capacity() const { return capacity_; }

 private:
  static constexpr uint32_t kNone = BlockMap::kAbsent;
  struct Node {
    uint64_t block = 0;
    uint32_t newer = kNone, older = kNone;
  };
  void unlink(uint32_t node);

  uint32_t capacity_;
  std::vector<Node> nodes_;
  std::vector<uint32_t> free_;
  BlockMap map_;
  uint32_t newest_ = kNone, oldest_ = kNone;
};

}  // namespace tierwise::cache::eviction
