// The LRU stack of a sample's blocks (Mattson, Gecsei, Slutz and Traiger,
// "Evaluation techniques for storage hierarchies", IBM Systems Journal 9(2),
// 1970): each re-reference's stack distance, the number of distinct blocks
// referenced since the block's previous reference, in O(log n), as in Bennett
// and Kruskal, "LRU stack processing", IBM J. R&D 19(4), 1975.
//
// Each reference gets the next logical time; a map holds each block's last
// access time and its marks: the epochs of its last read and last write (an
// epoch is the caller's count of window panes started so far; docs/analytics.md
// "Windows"). A Fenwick tree (Fenwick, "A new data structure for cumulative
// frequency tables", Software: Practice and Experience 24(3), 1994) holds one
// mark per block at its last access time, so a re-reference's distance is the
// number of marks after its previous time. When the clock reaches the tree's
// capacity the live times are renumbered 0..n-1 in order into a tree of
// capacity 2n: memory follows the blocks held, not the references. Blocks can
// be removed (a bounded sample evicts them). The service's mirror:
// stream-jobs ReuseDistanceStack; both give the same distances and marks.
// Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tierwise::sampling {

class ReuseDistanceStack {
 public:
  // The epoch of a read or a write that never happened.
  static constexpr int32_t kNoEpoch = -1;
  // Epochs are clipped to [0, kMaxEpoch] (the service packs them in 20 bits).
  static constexpr int32_t kMaxEpoch = (1 << 20) - 2;

  // A block's marks: the epochs of its last read and last write.
  struct Marks {
    int32_t read_epoch = kNoEpoch;
    int32_t write_epoch = kNoEpoch;
    // The epoch of its last access (kNoEpoch: never accessed).
    int32_t access_epoch() const { return read_epoch > write_epoch ? read_epoch : write_epoch; }
  };

  // What a reference found: a first reference (the block was not held), or a
  // re-reference at `distance`; `before` is the block's marks before it (both
  // kNoEpoch for a first reference).
  struct Reference {
    bool first = true;
    uint32_t distance = 0;
    Marks before;
  };

  // References block `key` now, a write or a read, in `epoch` (clipped).
  Reference reference(uint64_t key, bool write, int32_t epoch);

  // Removes a held block; its marks, or std::nullopt when it was not held.
  std::optional<Marks> remove(uint64_t key);

  // Blocks held.
  size_t size() const { return last_access_.size(); }

  // The blocks held, least recently referenced first, with their marks (a
  // stack pushed in this order is this one: push()).
  std::vector<std::pair<uint64_t, Marks>> by_recency() const;

  // Adds block `key`, not held, as the most recently referenced, with `marks`;
  // false (nothing changed) when it is held.
  bool push(uint64_t key, Marks marks);

 private:
  struct Entry {
    uint32_t time;
    Marks marks;
  };

  void tree_add(uint32_t time, int32_t delta);
  // Marks at times 0..time.
  uint32_t prefix_sum(uint32_t time) const;
  // Renumbers the live times 0..n-1 (order kept) into a tree of capacity 2n.
  void compact();

  std::unordered_map<uint64_t, Entry> last_access_;
  std::vector<int32_t> tree_ = std::vector<int32_t>(kMinCapacity + 1, 0);  // 1-based Fenwick tree
  uint32_t clock_ = 0;

  static constexpr uint32_t kMinCapacity = 64;
};

}  // namespace tierwise::sampling
