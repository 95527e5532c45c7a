// Exact LRU miss ratio curve from Mattson stack distances (Mattson, Gecsei,
// Slutz, Traiger: "Evaluation techniques for storage hierarchies", IBM
// Systems Journal 9(2), 1970).
//
// The stack distance of a re-access is the number of distinct blocks touched
// since the previous access to the same block, plus one; an LRU cache of C
// blocks hits exactly the re-accesses with distance <= C. Distances are
// counted in O(log n) per access with a Fenwick tree over access times that
// marks each block's latest access (Bennett & Kruskal, "LRU stack processing",
// IBM J. R&D 19(4), 1975). Time stamps are renumbered when the tree fills, so
// memory is O(distinct blocks), not O(accesses).
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "analysis/fenwick_tree.hpp"

namespace tierwise::analysis {

struct MrcPoint {
  uint64_t cache_bytes = 0;
  double miss_ratio = 0.0;
};

class ExactLruMrc {
 public:
  ExactLruMrc();

  // One reference to a block (a 4 KiB block number, or any 64-bit key).
  void access(uint64_t block);

  // References so far.
  uint64_t accesses() const { return accesses_; }
  // Distinct blocks so far = cold (compulsory) misses.
  uint64_t distinct_blocks() const { return last_access_.size(); }

  // histogram()[d] = re-accesses with stack distance d (d >= 1; index 0 unused).
  const std::vector<uint64_t>& histogram() const { return histogram_; }

  // Miss ratio of an LRU cache of `cache_blocks` blocks over all references
  // so far: (cold misses + re-accesses with distance > cache_blocks) /
  // accesses; 0 before any access.
  double miss_ratio(uint64_t cache_blocks) const;

  // Miss ratios at the given cache sizes in bytes (cache_bytes / block_bytes
  // blocks, rounded down).
  std::vector<MrcPoint> curve(std::span<const uint64_t> cache_bytes, uint64_t block_bytes) const;

 private:
  // Renumbers the live time stamps 0..distinct-1 (keeping their order) and
  // resizes the tree to twice that.
  void compact();

  std::unordered_map<uint64_t, uint64_t> last_access_;  // block -> time stamp
  FenwickTree marks_;                                    // 1 at each block's latest time stamp
  uint64_t next_time_ = 0;
  uint64_t accesses_ = 0;
  std::vector<uint64_t> histogram_;
};

}  // namespace tierwise::analysis
