// Blocking I/O over the asynchronous BlockDevice interface, for start-up work
// (journal recovery, formatting) that must finish before a volume serves I/O.
#pragma once

#include <cstdint>
#include <functional>

#include "blockdev/block_device.hpp"

namespace tierwise::cache::writeback {

// Runs the devices' completions (UringQueue::poll(true) for io_uring devices;
// nothing for RAM devices, which complete synchronously).
using PollDevices = std::function<void()>;

/*
 * SyncIo: issue any number of requests, then wait() for all of them.
 * wait() returns 0 or the first failure's -errno (a refused submission counts
 * as a failure). One SyncIo per batch; single-threaded like the devices.
 */
class SyncIo {
 public:
  explicit SyncIo(PollDevices poll) : poll_(std::move(poll)) {}

  void read(blockdev::BlockDevice& dev, void* buf, uint64_t offset, uint32_t length) {
    track(dev.submit_read(buf, offset, length, done, this));
  }
  void write(blockdev::BlockDevice& dev, const void* buf, uint64_t offset, uint32_t length) {
    track(dev.submit_write(buf, offset, length, done, this));
  }
  void flush(blockdev::BlockDevice& dev) { track(dev.submit_flush(done, this)); }

  int wait() {
    while (pending_ > 0) poll_();
    const int status = status_;
    status_ = 0;
    return status;
  }

 private:
  void track(int rc) {
    if (rc == 0) {
      ++pending_;  // a synchronous completion already ran done(): pending_ is back to 0
    } else if (status_ == 0) {
      status_ = rc;
    }
  }
  static void done(void* arg, int status) {
    auto* self = static_cast<SyncIo*>(arg);
    --self->pending_;
    if (status != 0 && self->status_ == 0) self->status_ = status;
  }

  PollDevices poll_;
  int64_t pending_ = 0;  // may dip below zero while a synchronous device completes inside submit
  int status_ = 0;
};

}  // namespace tierwise::cache::writeback
