// Open-addressing hash map from a 4 KiB block number to a 32-bit value (a slot
// or a node index): the one lookup structure of the tier index and of the
// eviction policies' ghost lists.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace tierwise::cache::eviction {

/*
 * Linear probing with backward-shift deletion (Knuth, TAOCP vol. 3, 6.4,
 * Algorithm R), so erasing leaves no tombstones and lookups stay short.
 *
 * Memory: the table doubles when it becomes half full, so it grows at most
 * log2(n) times over an engine's life and never allocates per access; find,
 * insert and erase are O(1) expected. Values must be below kAbsent.
 */
class BlockMap {
 public:
  static constexpr uint32_t kAbsent = std::numeric_limits<uint32_t>::max();

  BlockMap() = default;

  // Value stored for `block`, or kAbsent.
  uint32_t find(uint64_t block) const;
  // Stores `value` (< kAbsent) for `block`, which must be absent.
  void insert(uint64_t block, uint32_t value);
  // Removes `block` if present; returns whether it was.
  bool erase(uint64_t block);

  uint32_t size() const { return size_; }

 private:
  struct Entry {
    uint64_t block = 0;
    uint32_t value = kAbsent;  // kAbsent: the entry is empty
  };
  size_t home(uint64_t block) const;
  void grow();

  std::vector<Entry> table_;
  size_t mask_ = 0;
  uint32_t size_ = 0;
};

}  // namespace tierwise::cache::eviction
