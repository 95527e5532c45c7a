#include "cache/engine_poll.hpp"

#include <poll.h>
#include <unistd.h>

#include <cstdint>

namespace tierwise::cache {

int poll_engine(blockdev::UringQueue& queue, CacheEngine& engine, int wake_fd, int max_wait_ms) {
  engine.tick();
  const int reaped = queue.poll(false);
  if (reaped != 0) return reaped;
  pollfd fds[2] = {{queue.ring_fd(), POLLIN, 0}, {wake_fd, POLLIN, 0}};
  const int n = ::poll(fds, wake_fd >= 0 ? 2 : 1, max_wait_ms);
  if (n > 0 && wake_fd >= 0 && (fds[1].revents & POLLIN) != 0) {
    uint64_t count = 0;
    [[maybe_unused]] const ssize_t got = ::read(wake_fd, &count, sizeof count);
  }
  return 0;
}

}  // namespace tierwise::cache
