// Intrusive doubly linked lists of tier slots: the queues of every eviction
// policy (LRU list; S3-FIFO small/main; ARC T1/T2; 2Q A1in/Am; SIEVE queue).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace tierwise::cache::eviction {

/*
 * A fixed number of lists over one shared set of slot links: each slot is in
 * at most one list at a time. The front is the most recent end (insertions,
 * LRU promotions), the back the oldest (eviction candidates). Every operation
 * is O(1); link storage grows with the highest slot number seen (geometric
 * vector growth, never per access).
 */
class SlotLists {
 public:
  static constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

  explicit SlotLists(uint8_t list_count) : lists_(list_count) {}

  void push_front(uint8_t list, uint32_t slot);
  // Removes `slot` from whichever list holds it (no-op when in none).
  void remove(uint32_t slot);
  // Oldest slot of `list`, or kNone when it is empty.
  uint32_t back(uint8_t list) const { return lists_[list].tail; }
  uint32_t front(uint8_t list) const { return lists_[list].head; }
  // Slot next to `slot` towards the front, or kNone.
  uint32_t newer(uint32_t slot) const { return links_[slot].prev; }
  uint32_t size(uint8_t list) const { return lists_[list].size; }
  // The list holding `slot`, or kNoList.
  uint8_t list_of(uint32_t slot) const {
    return slot < links_.size() ? links_[slot].list : kNoList;
  }

  static constexpr uint8_t kNoList = 0xff;

  // Calls f(slot) for every slot of `list`, oldest (back) first.
  template <typename F>
  void for_each_oldest_first(uint8_t list, F f) const {
    for (uint32_t s = back(list); s != kNone; s = newer(s)) f(s);
  }

 private:
  struct Link {
    uint32_t prev = kNone;  // towards the front
    uint32_t next = kNone;  // towards the back
    uint8_t list = kNoList;
  };
  struct List {
    uint32_t head = kNone, tail = kNone, size = 0;
  };
  std::vector<Link> links_;
  std::vector<List> lists_;
};

}  // namespace tierwise::cache::eviction
