// RequestPool: a free list of in-flight request records with stable addresses.
//
// Lifecycle: acquire() hands out a record (reused or newly appended); the
// owner fills it, passes its address through the I/O path as the completion
// argument, and release()s it on completion. The pool grows to the peak
// number of requests in flight and never shrinks; no allocation happens once
// it has reached that peak. Not thread-safe: one pool per I/O thread.
#pragma once

#include <deque>
#include <vector>

namespace tierwise::blockdev {

template <typename Request>
class RequestPool {
 public:
  Request* acquire() {
    if (free_.empty()) {
      pool_.emplace_back();
      return &pool_.back();
    }
    Request* r = free_.back();
    free_.pop_back();
    return r;
  }

  void release(Request* r) { free_.push_back(r); }

 private:
  std::deque<Request> pool_;  // std::deque keeps addresses stable as it grows
  std::vector<Request*> free_;
};

}  // namespace tierwise::blockdev
