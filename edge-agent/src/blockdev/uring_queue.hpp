// One io_uring instance shared by any number of UringFileDevices (the analogue
// of an SPDK I/O channel: one per polling thread).
#pragma once

#include <liburing.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "blockdev/block_device.hpp"
#include "blockdev/request_pool.hpp"

namespace tierwise::blockdev {

/*
 * Lifecycle of a UringQueue
 *
 * 1. create(): io_uring_queue_init with `entries` submission slots.
 * 2. Devices enqueue requests (enqueue_read/enqueue_write/enqueue_fsync). Enqueuing
 *    only fills submission queue entries: nothing reaches the kernel yet, so many
 *    requests leave in one io_uring_submit (batched submission). When the
 *    submission queue is full, or the completion queue could overflow, requests
 *    wait in a backlog and are prepared as slots free up.
 * 3. poll(): submits everything prepared (one system call), reaps completions and
 *    runs their callbacks on the calling thread. Short reads are continued; a read
 *    that reaches end of file fills the rest with zeros (a sparse datastore). Short
 *    writes are continued; a write that makes no progress fails with -EIO.
 * 4. Destroy only after in_flight() is 0 (poll until it is).
 *
 * Single-threaded: enqueue and poll from one thread.
 */
class UringQueue {
 public:
  // Creates a ring with `entries` submission slots (a power of two, <= 32768).
  // Returns 0 or -errno from io_uring_queue_init (-ENOMEM, -EPERM when io_uring is
  // disabled by sysctl kernel.io_uring_disabled, ...).
  static int create(unsigned entries, std::unique_ptr<UringQueue>* out);
  ~UringQueue();
  UringQueue(const UringQueue&) = delete;
  UringQueue& operator=(const UringQueue&) = delete;

  // Queue a read/write of `length` bytes at `offset` on `fd`. `eof_hint` (for reads)
  // points at the file's known size: a short read ending at or past it is zero-filled
  // without another round trip. Never fails: the request is prepared or backlogged.
  void enqueue_read(int fd, void* buf, uint64_t offset, uint32_t length,
                    const uint64_t* eof_hint, IoCompletion cb, void* cb_arg);
  void enqueue_write(int fd, const void* buf, uint64_t offset, uint32_t length,
                     IoCompletion cb, void* cb_arg);
  // Queue an fdatasync of `fd` (IORING_OP_FSYNC with IORING_FSYNC_DATASYNC).
  void enqueue_fsync(int fd, IoCompletion cb, void* cb_arg);
  // Queue an fallocate(2) of `fd` with `mode` over [offset, offset + length)
  // (IORING_OP_FALLOCATE; FALLOC_FL_PUNCH_HOLE deallocates).
  void enqueue_fallocate(int fd, int mode, uint64_t offset, uint32_t length, IoCompletion cb,
                         void* cb_arg);

  // Has the kernel signal `eventfd` for every completion (io_uring_register_eventfd),
  // so an event loop can sleep in epoll and poll() when it fires. 0 or -errno.
  int register_eventfd(int eventfd);

  // Submits prepared requests and runs the callbacks of completed ones. With
  // `wait`, blocks until at least one completion when any request is in flight.
  // Returns the number of requests completed (>= 0) or -errno from the kernel.
  int poll(bool wait);

  // Requests accepted and not yet completed (prepared, backlogged or in the kernel).
  uint64_t in_flight() const { return in_flight_; }
  // The ring's file descriptor: poll(2) reports it readable when completions
  // wait to be reaped (for loops that also wait on other descriptors).
  int ring_fd() const { return ring_.ring_fd; }
  // io_uring_submit calls made so far and requests they carried (batching factor
  // = submitted_requests / submit_calls).
  uint64_t submit_calls() const { return submit_calls_; }
  uint64_t submitted_requests() const { return submitted_requests_; }

 private:
  enum class Op : uint8_t { kRead, kWrite, kFsync, kFallocate };
  struct Request {
    Op op;
    int fd;
    std::byte* buf;
    uint64_t offset;
    uint32_t length;
    uint32_t done;  // bytes transferred so far; kFallocate: the mode
    const uint64_t* eof_hint;
    IoCompletion cb;
    void* cb_arg;
  };

  UringQueue() = default;
  void enqueue(Request* r);
  void prepare(Request* r);
  void prepare_backlog();
  // Handles one CQE; returns true when the request finished (callback ran).
  bool on_cqe(Request* r, int res);

  io_uring ring_{};
  bool ring_ready_ = false;
  unsigned sq_entries_ = 0;
  unsigned cq_entries_ = 0;
  unsigned in_kernel_ = 0;  // prepared or submitted, CQE not yet reaped
  uint64_t in_flight_ = 0;
  uint64_t submit_calls_ = 0;
  uint64_t submitted_requests_ = 0;
  RequestPool<Request> requests_;
  std::deque<Request*> backlog_;
};

}  // namespace tierwise::blockdev
