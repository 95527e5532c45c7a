// SIEVE: Zhang, Yang, Yue, Vigfusson, Rashmi, "SIEVE is Simpler than LRU: an
// Efficient Turn-Key Eviction Algorithm for Web Caches", NSDI 2024
// (Algorithm 1).
#pragma once

#include <cstdint>
#include <vector>

#include "cache/eviction/eviction_policy.hpp"
#include "cache/eviction/slot_lists.hpp"

namespace tierwise::cache::eviction {

/*
 * One FIFO queue of the resident blocks, head = newest, tail = oldest, a
 * visited bit per block and a hand (a position in the queue, or unset). No
 * ghost entries.
 *
 *   insert: the new block enters at the head with visited = 0.
 *   hit:    visited = 1; the block does not move.
 *   evict:  the hand starts at the tail when unset. While the block at the
 *           hand has visited = 1, the bit is cleared and the hand moves one
 *           step toward the head; past the head it wraps to the tail. The block
 *           at the hand with visited = 0 is the victim; before it is removed
 *           the hand moves one step toward the head (unset when the victim was
 *           the head, so the next eviction starts again at the tail).
 *   erase:  when the hand is on the erased block it first moves one step
 *           toward the head (unset when that block was the head).
 *
 * New blocks are thus evicted quickly unless hit before the hand reaches them
 * ("quick demotion"), and a visited block survives one pass of the hand. A
 * block evicted and re-admitted by the tier index (a held block) re-enters at
 * the head with visited = 0.
 *
 * Live rebuild: eviction_order lists every block from the hand (the tail when
 * unset) toward the head, then from the tail up to the block before the hand;
 * `frequent` = visited. adopt makes the first entry the tail and the last the
 * head, hand unset, every visited bit 0 (access state starts fresh, as the
 * interface says).
 *
 * Every call is O(1) amortised: each step of the hand over a visited block
 * clears a bit that only a hit set.
 */
class SievePolicy final : public EvictionPolicy {
 public:
  SievePolicy() : lists_(1) {}
  PolicyKind kind() const override { return PolicyKind::kSieve; }
  void on_hit(uint32_t slot) override { visited_[slot] = 1; }
  void on_miss(uint64_t) override {}
  uint32_t evict(const ResidentBlocks& blocks) override;
  void on_insert(uint32_t slot, uint64_t block) override;
  void on_erase(uint32_t slot) override;
  void eviction_order(const ResidentBlocks& blocks, std::vector<ResidentEntry>* out) const override;
  void adopt(const std::vector<ResidentEntry>& entries) override;

  // Introspection for tests: the slot under the hand (kNoSlot when unset) and
  // whether the block in `slot` was visited since the hand last passed it.
  uint32_t hand() const { return hand_ == SlotLists::kNone ? kNoSlot : hand_; }
  bool visited(uint32_t slot) const { return visited_[slot] != 0; }

 private:
  static constexpr uint8_t kQueue = 0;
  // One step toward the head from `slot`, wrapping past the head to the tail.
  uint32_t step_wrapping(uint32_t slot) const;

  SlotLists lists_;
  std::vector<uint8_t> visited_;  // per slot
  uint32_t hand_ = SlotLists::kNone;
};

}  // namespace tierwise::cache::eviction
