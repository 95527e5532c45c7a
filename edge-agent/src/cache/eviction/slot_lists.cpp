#include "cache/eviction/slot_lists.hpp"

namespace tierwise::cache::eviction {

void SlotLists::push_front(uint8_t list, uint32_t slot) {
  if (slot >= links_.size()) links_.resize(slot + 1);
  remove(slot);
  Link& s = links_[slot];
  List& l = lists_[list];
  s.list = list;
  s.prev = kNone;
  s.next = l.head;
  if (l.head != kNone) links_[l.head].prev = slot; else l.tail = slot;
  l.head = slot;
  ++l.size;
}

void SlotLists::remove(uint32_t slot) {
  if (slot >= links_.size() || links_[slot].list == kNoList) return;
  Link& s = links_[slot];
  List& l = lists_[s.list];
  if (s.prev != kNone) links_[s.prev].next = s.next; else l.head = s.next;
  if (s.next != kNone) links_[s.next].prev = s.prev; else l.tail = s.prev;
  --l.size;
  s = Link{};
}

}  // namespace tierwise::cache::eviction
