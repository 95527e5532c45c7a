// Block-device interface: asynchronous reads, writes and flushes of byte ranges
// with completion callbacks.
//
// Shaped after SPDK's bdev API (spdk_bdev_read/spdk_bdev_write/spdk_bdev_flush take
// a buffer, a byte offset and length, a completion function and its argument), so
// an SPDK back end can implement it later. Implementations here: UringFileDevice
// (a file driven by io_uring, the datastore) and RamDevice (the RAM tier).
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstdint>

namespace tierwise::blockdev {

// Completion of one request. `status` is 0 on success or a negative errno
// (-EIO, -ENOSPC, ...). Runs exactly once per accepted request, on the thread
// that drives the device (see the lifecycle below).
using IoCompletion = void (*)(void* cb_arg, int status);

/*
 * Lifecycle of a BlockDevice
 *
 * 1. Open: each implementation has a static factory returning 0 or -errno and the
 *    device through an out-parameter (SPDK style: no exceptions across the API).
 * 2. Submit: submit_read/submit_write/submit_flush return 0 when the request was
 *    accepted, and a negative errno when it was refused (-EINVAL for a range that
 *    breaks the alignment rules below, for example). A refused request never calls
 *    its completion; an accepted one calls it exactly once.
 * 3. Complete: a completion may run before submit_* returns (RamDevice completes
 *    synchronously) or later from the device's poller (UringFileDevice completes
 *    from UringQueue::poll). Callers must work with both: count the request as
 *    outstanding before submitting it.
 * 4. Close: destroy the device only when none of its requests is outstanding.
 *
 * Alignment: offset and length are multiples of block_size(); buffers are aligned
 * to buffer_alignment(). The buffer must stay valid until the completion ran.
 * Devices are single-threaded: submit and poll from one thread.
 */
class BlockDevice {
 public:
  virtual ~BlockDevice() = default;

  // Unit of offsets and lengths, bytes (SPDK: spdk_bdev_get_block_size).
  virtual uint32_t block_size() const = 0;
  // Required alignment of data buffers, bytes (SPDK: spdk_bdev_get_buf_align).
  virtual size_t buffer_alignment() const = 0;

  // Reads `length` bytes at byte `offset` into `buf`. Bytes never written read as
  // zeros. Returns 0 (accepted) or -errno (refused).
  virtual int submit_read(void* buf, uint64_t offset, uint32_t length, IoCompletion cb,
                          void* cb_arg) = 0;
  // Writes `length` bytes from `buf` at byte `offset`. Returns 0 or -errno.
  virtual int submit_write(const void* buf, uint64_t offset, uint32_t length,
                           IoCompletion cb, void* cb_arg) = 0;
  // Makes completed writes durable (fdatasync for files). Returns 0 or -errno.
  virtual int submit_flush(IoCompletion cb, void* cb_arg) = 0;
  // Deallocates `length` bytes at byte `offset` (SPDK: spdk_bdev_unmap): later
  // reads of the range return zeros. Same alignment rules as writes. Returns 0
  // or -errno; -EOPNOTSUPP (the default) when the device cannot deallocate.
  virtual int submit_discard(uint64_t offset, uint32_t length, IoCompletion cb, void* cb_arg) {
    (void)offset, (void)length, (void)cb, (void)cb_arg;
    return -EOPNOTSUPP;
  }
  // True when completed writes survive the process (files, devices); false for
  // memory. A write-back journal needs a persistent tier.
  virtual bool persistent() const { return true; }
};

}  // namespace tierwise::blockdev
