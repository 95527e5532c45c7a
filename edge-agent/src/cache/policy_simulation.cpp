#include "cache/policy_simulation.hpp"

#include <algorithm>

#include "cache/tier_index.hpp"

namespace tierwise::cache {

uint64_t simulate_misses(eviction::PolicyKind kind, uint64_t capacity_blocks, std::span<const uint64_t> refs) {
  const auto slots = static_cast<uint32_t>(
      std::clamp<uint64_t>(std::min<uint64_t>(capacity_blocks, refs.size()), 1, TierIndex::kNoSlot - 1));
  TierIndex index(slots, slots, eviction::make_policy(kind, slots));
  uint64_t misses = 0;
  for (const uint64_t block : refs) {
    const uint32_t slot = index.find(block);
    if (slot != TierIndex::kNoSlot) {
      index.touch(slot);
    } else {
      index.insert(block);
      ++misses;
    }
  }
  return misses;
}

}  // namespace tierwise::cache
