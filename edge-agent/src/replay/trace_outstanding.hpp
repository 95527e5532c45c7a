// The I/Os of one volume in flight when each of its commands is issued, from a
// trace that records every I/O's response time (proto/METRICS.md
// `tierwise.io.outstanding`: the I/Os issued and not completed when a new one
// is issued, that one included). Which formats carry a response time:
// trace::IoRecord::response_time_us (MSR Cambridge, SYSTOR '17 and vscsi v2
// records); a record without one is neither counted nor in flight, so a trace
// without them gives no outstanding points.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "trace/record.hpp"

namespace tierwise::replay {

/*
 * Issue time is the replay's clock of the volume: the trace timestamps in
 * trace order, never going back (a record earlier than the one before it is
 * issued at the same time as that one). An I/O issued at t with response
 * time r is in flight from t until t + r: at t + r it no longer counts.
 * Completions wait in one min-heap per direction; their vectors grow to the
 * largest number in flight and are reused after.
 */
class TraceOutstanding {
 public:
  struct InFlight {
    uint64_t all;        // I/Os of every direction, the new one included
    uint64_t direction;  // those of the new one's direction, it included
  };

  // A command of `direction` issued at `issued_us` (not earlier than the
  // previous issue) that completes `response_us` >= 0 later.
  InFlight issue(trace::Direction direction, int64_t issued_us, int64_t response_us) {
    for (auto& completions : completions_) {
      while (!completions.empty() && completions.top() <= issued_us) completions.pop();
    }
    auto& own = completions_[static_cast<size_t>(direction)];
    own.push(issued_us + response_us);
    return {completions_[0].size() + completions_[1].size(), own.size()};
  }

 private:
  std::priority_queue<int64_t, std::vector<int64_t>, std::greater<>> completions_[2];
};

}  // namespace tierwise::replay
