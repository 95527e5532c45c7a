// One turn of the polling loop that drives a cache engine over io_uring devices
// (and its peers' acknowledgements in WB+n).
#pragma once

#include "blockdev/uring_queue.hpp"
#include "cache/cache_engine.hpp"

namespace tierwise::cache {

/*
 * poll_engine(): runs engine.tick() (write-back background work), submits and
 * reaps io_uring requests (UringQueue::poll), and when nothing completed waits
 * with poll(2) up to `max_wait_ms` for the ring or `wake_fd` (a ReplicaSink's
 * wake_fd(), or -1) to become readable; a readable wake_fd is cleared.
 * Returns the completions reaped (>= 0) or -errno from io_uring.
 * Call it in a loop from the thread that owns the queue and the engine.
 */
int poll_engine(blockdev::UringQueue& queue, CacheEngine& engine, int wake_fd, int max_wait_ms);

}  // namespace tierwise::cache
