// Which 4 KiB blocks the tier holds, in which slot, in LRU order.
#pragma once

#include <cstdint>
#include <limits>
#include <unordered_map>
#include <vector>

namespace tierwise::cache {

/*
 * Lifecycle of an LruIndex
 *
 * 1. Construct with the tier's capacity in slots; no slot storage is reserved:
 *    slot records grow as blocks are inserted (slot numbers 0, 1, 2, ... so the
 *    tier's memory stays compact), up to the capacity.
 * 2. find/touch for hits, insert for misses (evicting the least recently used
 *    unpinned slot once the capacity is reached), erase to drop a block.
 * 3. pin/unpin bracket every in-flight use of a slot: a pinned slot is never
 *    chosen for eviction, so an I/O in flight never sees its slot reused.
 *
 * LRU order: insert and touch put the slot at the most recently used end.
 */
class LruIndex {
 public:
  static constexpr uint32_t kNoSlot = std::numeric_limits<uint32_t>::max();

  explicit LruIndex(uint32_t capacity_slots) : capacity_(capacity_slots) {}

  // Slot holding `block` (a 4 KiB block number), or kNoSlot.
  uint32_t find(uint64_t block) const;
  // Marks `slot` most recently used.
  void touch(uint32_t slot);

  struct Insertion {
    uint32_t slot = kNoSlot;  // kNoSlot: every slot is pinned, nothing inserted
    bool evicted = false;     // a block was evicted to make room
    uint64_t evicted_block = 0;
  };
  // Maps `block` (which must be absent) to a slot at the most recently used end:
  // an erased slot, else a never-used one while below capacity, else the least
  // recently used unpinned slot (its block is evicted).
  Insertion insert(uint64_t block);
  // Unmaps the block held in `slot`; the slot is reused by later inserts.
  void erase(uint32_t slot);

  void pin(uint32_t slot) { ++slots_[slot].pins; }
  void unpin(uint32_t slot) { --slots_[slot].pins; }

  // Blocks held.
  uint32_t size() const { return static_cast<uint32_t>(map_.size()); }
  uint32_t capacity() const { return capacity_; }

 private:
  struct Slot {
    uint64_t block = 0;
    uint32_t prev = kNoSlot;  // towards the most recently used end
    uint32_t next = kNoSlot;  // towards the least recently used end
    uint32_t pins = 0;
  };
  void unlink(uint32_t slot);
  void push_front(uint32_t slot);
  uint32_t take_slot(Insertion& ins);

  uint32_t capacity_;
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_;  // erased slots
  std::unordered_map<uint64_t, uint32_t> map_;
  uint32_t head_ = kNoSlot;  // most recently used
  uint32_t tail_ = kNoSlot;  // least recently used
};

}  // namespace tierwise::cache
