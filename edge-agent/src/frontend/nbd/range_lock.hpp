// Serializes overlapping I/Os of one volume: the cache engine's rule 3
// (cache/cache_engine.hpp: concurrent I/Os must not share a 4 KiB block).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

namespace tierwise::frontend::nbd {

/*
 * Lifecycle of a RangeLock (one per volume, used by every connection to it)
 *
 * 1. Construct empty.
 * 2. acquire(range): the caller owns `range` (embedded in its request record,
 *    no allocation per I/O) and fills first/last (inclusive 4 KiB block
 *    numbers). Granted at once (true) when it overlaps no held range and no
 *    range waiting before it; otherwise it waits (false) in arrival order.
 * 3. release(range): drops a held range and appends to `granted`, in arrival
 *    order, every waiting range that now overlaps neither a held range nor a
 *    range still waiting ahead of it (so overlapping I/Os run in the order
 *    they arrived, and none starves). The caller starts those I/Os.
 * 4. Destroy when nothing is held or waiting.
 *
 * Single-threaded: the volume's reactor thread calls it. Cost is linear in the
 * number of ranges held and waiting (at most the queue depth of all clients).
 */
class RangeLock {
 public:
  struct Range {
    uint64_t first = 0;  // first 4 KiB block
    uint64_t last = 0;   // last 4 KiB block (inclusive)
    void* owner = nullptr;  // the caller's request record
  };

  bool acquire(Range* range);
  void release(Range* range, std::vector<Range*>* granted);

  size_t held() const { return held_.size(); }
  size_t waiting() const { return waiting_.size(); }

 private:
  static bool overlap(const Range* a, const Range* b) {
    return a->first <= b->last && b->first <= a->last;
  }
  bool conflicts_with_held(const Range* r) const;

  std::vector<Range*> held_;
  std::deque<Range*> waiting_;
};

}  // namespace tierwise::frontend::nbd
