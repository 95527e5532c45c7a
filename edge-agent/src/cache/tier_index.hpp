// Which 4 KiB blocks the tier holds and in which slot; the eviction policy
// decides which block leaves when the tier is full.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "cache/eviction/block_map.hpp"
#include "cache/eviction/eviction_policy.hpp"

namespace tierwise::cache {

/*
 * Lifecycle of a TierIndex
 *
 * 1. Construct with the tier's capacity in slots (at most that many blocks are
 *    resident), the slot limit (>= capacity: how many 4 KiB slots the tier
 *    device has room for) and the eviction policy. No slot storage is reserved:
 *    slot records grow as blocks are inserted (slot numbers 0, 1, 2, ... so the
 *    tier's memory stays compact).
 * 2. find/touch for hits, insert for misses (the policy picks the victim once
 *    `capacity` blocks are resident), unpin(slot, true) to drop a block.
 * 3. pin/unpin bracket every in-flight use of a slot.
 *
 * Deferred eviction of pinned victims. The policy's victim leaves the index at
 * once, whatever its pins, so hits and misses follow the policy exactly (at
 * any queue depth). A victim still pinned by an in-flight I/O keeps its slot
 * ("retiring") until its last unpin; the incoming block then takes a free slot
 * from the room between capacity and the slot limit (staging room: sized by
 * the caller for the blocks that can be in flight at once). Only when there is
 * none is the incoming block not inserted (Insertion::slot == kNoSlot): the
 * tier then holds one block fewer than the policy's model until a slot frees.
 * Resident blocks never exceed the capacity; retiring slots hold no block.
 *
 * Live changes (docs/eviction.md "Live changes"). resize() sets another
 * capacity: growing makes more slots usable at once (the slot limit grows by
 * as much, keeping the staging room); shrinking evicts the policy's victims
 * down to the new capacity at once (pinned ones retire as above, held ones
 * are skipped). switch_policy() hands the
 * resident blocks to a new policy in the old one's eviction order
 * (EvictionPolicy::eviction_order/adopt); no block enters or leaves. Both are
 * O(resident blocks).
 *
 * Every other operation is O(1); memory grows geometrically with the slots
 * used and is never allocated per access.
 */
class TierIndex final : private eviction::ResidentBlocks {
 public:
  static constexpr uint32_t kNoSlot = eviction::EvictionPolicy::kNoSlot;

  // capacity_slots >= 1; slot_limit >= capacity_slots (smaller values are raised).
  TierIndex(uint32_t capacity_slots, uint32_t slot_limit,
            std::unique_ptr<eviction::EvictionPolicy> policy);

  // Slot holding `block` (a 4 KiB block number), or kNoSlot.
  uint32_t find(uint64_t block) const { return map_.find(block); }
  // A hit on the resident block in `slot` (the policy updates its order).
  void touch(uint32_t slot) { policy_->on_hit(slot); }

  struct Insertion {
    uint32_t slot = kNoSlot;  // kNoSlot: no free slot (see above), nothing inserted
    bool evicted = false;     // a block was evicted to make room
    uint64_t evicted_block = 0;
  };
  // Admits `block` (which must be absent) after a miss.
  Insertion insert(uint64_t block);

  void pin(uint32_t slot) { ++slots_[slot].pins; }
  // Ends one in-flight use of `slot`. With `drop`, its block leaves the tier
  // (no eviction is counted and the policy keeps no ghost of it); a slot
  // whose block was evicted meanwhile is simply freed at its last unpin.
  void unpin(uint32_t slot, bool drop = false);

  // Keeps the resident block in `slot` in the tier until release_hold(): a dirty
  // block awaiting destage (write-back). When the policy picks a held block as
  // its victim, the block is re-admitted (on_insert) and the policy asked again;
  // when every candidate is held, nothing is inserted.
  void hold(uint32_t slot) {
    slots_[slot].held = true;
    ++held_;
  }
  void release_hold(uint32_t slot) {
    slots_[slot].held = false;
    --held_;
  }

  // Live resize to `capacity_slots` (>= 1) resident blocks; the caller checks
  // that the tier device holds capacity_slots plus the staging room. Returns the
  // blocks evicted to shrink: the policy's victims, skipping held blocks (all
  // of them held: fewer are evicted and the tier stays above its capacity
  // until an insertion finds a victim).
  uint32_t resize(uint32_t capacity_slots);
  // Live switch to a policy of `kind` (for the current capacity); the resident
  // blocks, their slots and pins are unchanged.
  void switch_policy(eviction::PolicyKind kind);
  // Drops every resident, unpinned block for which `leaves(block)` holds, as
  // unpin(slot, true) would (no eviction counted, no ghost entry); returns how
  // many. A miniature simulation's sample shrinking (MiniatureSimulations).
  // O(slots used).
  uint32_t drop_if(const std::function<bool(uint64_t)>& leaves);

  uint32_t size() const { return map_.size(); }       // resident blocks
  uint32_t capacity() const { return capacity_; }
  uint32_t retiring() const { return retiring_; }     // evicted, slot still pinned
  const eviction::EvictionPolicy& policy() const { return *policy_; }

 private:
  enum class State : uint8_t { kFree, kResident, kRetiring };
  struct Slot {
    uint64_t block = 0;
    uint32_t pins = 0;
    State state = State::kFree;
    bool held = false;
  };
  // The policy's victim, skipping held blocks; kNoSlot when all are held.
  uint32_t unheld_victim();
  uint64_t block_in(uint32_t slot) const override { return slots_[slot].block; }
  uint32_t take_free_slot();
  void release(uint32_t slot);
  // Takes `victim` (the policy's, already out of its queues) out of the index;
  // true when its slot is free for reuse at once, false when an in-flight I/O
  // still pins it (it retires).
  bool evict_slot(uint32_t victim, uint64_t* evicted_block);
  // Evicts the policy's unheld victims while more than `capacity_` blocks are
  // resident; returns how many.
  uint32_t trim();
  // Replaces the policy by a fresh one of `kind` for the current capacity,
  // holding the resident blocks in the old one's eviction order.
  void rebuild_policy(eviction::PolicyKind kind);

  uint32_t capacity_;
  uint32_t slot_limit_;
  uint32_t staging_;  // slot_limit_ - capacity_ as constructed
  std::unique_ptr<eviction::EvictionPolicy> policy_;
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_;  // free slots below slots_.size()
  eviction::BlockMap map_;
  uint32_t retiring_ = 0;
  uint32_t held_ = 0;
};

}  // namespace tierwise::cache
