// A regular file as a block device, driven by io_uring: the datastore back end.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "blockdev/block_device.hpp"
#include "blockdev/uring_queue.hpp"

namespace tierwise::blockdev {

/*
 * Lifecycle of a UringFileDevice
 *
 * 1. open(): opens or creates (mode 0600, sparse: nothing is preallocated) the
 *    file. It asks for O_DIRECT (bypassing the page cache, as a datastore would)
 *    and falls back to buffered I/O when the filesystem refuses O_DIRECT (open
 *    fails with EINVAL) or when statx(STATX_DIOALIGN) reports that direct I/O needs
 *    offsets aligned to more than 512 bytes.
 * 2. submit_*: requests go to the shared UringQueue; completions run from
 *    UringQueue::poll on the polling thread.
 * 3. Destroy when none of its requests is outstanding; closes the file (the file
 *    itself stays; removing it is the owner's business).
 *
 * block_size() and buffer_alignment() are 512 (a sector) in both modes, so a
 * cache tier can read and write single sectors of its slots in place.
 * Reads past the end of the file return zeros (the file is sparse).
 */
class UringFileDevice final : public BlockDevice {
 public:
  // Returns 0 or -errno from open(2)/statx(2) (-EACCES, -ENOENT for a missing
  // directory, -EMFILE when out of file descriptors, ...).
  static int open(UringQueue& queue, const std::string& path,
                  std::unique_ptr<UringFileDevice>* out);
  ~UringFileDevice() override;
  UringFileDevice(const UringFileDevice&) = delete;
  UringFileDevice& operator=(const UringFileDevice&) = delete;

  static constexpr uint32_t kBlockSize = 512;
  static constexpr size_t kBufferAlignment = 512;

  uint32_t block_size() const override { return kBlockSize; }
  size_t buffer_alignment() const override { return kBufferAlignment; }
  int submit_read(void* buf, uint64_t offset, uint32_t length, IoCompletion cb,
                  void* cb_arg) override;
  int submit_write(const void* buf, uint64_t offset, uint32_t length, IoCompletion cb,
                   void* cb_arg) override;
  int submit_flush(IoCompletion cb, void* cb_arg) override;
  // Punches a hole (fallocate FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE): the
  // range reads as zeros and its space is freed. Fails with -EOPNOTSUPP from the
  // completion where the filesystem or block device cannot.
  int submit_discard(uint64_t offset, uint32_t length, IoCompletion cb, void* cb_arg) override;

  // True when the file is open with O_DIRECT.
  bool direct_io() const { return direct_; }

 private:
  UringFileDevice(UringQueue& queue, int fd, bool direct, uint64_t size)
      : queue_(queue), fd_(fd), direct_(direct), size_hint_(size) {}
  // -EINVAL unless offset, length and buffer follow the alignment rules.
  int check(const void* buf, uint64_t offset, uint32_t length) const;

  UringQueue& queue_;
  int fd_;
  bool direct_;
  // Bytes known to exist in the file: its size at open, raised by every write
  // when submitted. Reads ending past it are zero-filled after a short read.
  uint64_t size_hint_;
};

}  // namespace tierwise::blockdev
