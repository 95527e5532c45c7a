// Byte-addressable memory as a block device: the RAM tier of the cache.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "blockdev/aligned_buffer.hpp"
#include "blockdev/block_device.hpp"

namespace tierwise::blockdev {

/*
 * Lifecycle of a RamDevice
 *
 * 1. create(capacity): reserves nothing. Memory comes in chunks of kChunkBytes,
 *    allocated the first time a write touches the chunk, so a tier sized 256 MiB
 *    costs only what was populated (rounded up to a chunk). Users that hand out
 *    space from the low addresses up (the cache engine's slots) keep it compact.
 * 2. submit_*: requests complete synchronously: the completion runs before
 *    submit_* returns. Reads of never-written ranges return zeros. A write that
 *    needs a new chunk while memory is exhausted completes with -ENOMEM.
 * 3. Destroy at any time after the last completion (there is no background work).
 *
 * block_size() is 1 and buffer_alignment() is 1: any byte range inside the
 * capacity is accepted; -EINVAL when it leaves the capacity or is empty.
 */
class RamDevice final : public BlockDevice {
 public:
  static constexpr uint64_t kChunkBytes = 64 * 1024;

  // Returns 0, or -EINVAL for a zero capacity.
  static int create(uint64_t capacity_bytes, std::unique_ptr<RamDevice>* out);

  uint32_t block_size() const override { return 1; }
  size_t buffer_alignment() const override { return 1; }
  int submit_read(void* buf, uint64_t offset, uint32_t length, IoCompletion cb,
                  void* cb_arg) override;
  int submit_write(const void* buf, uint64_t offset, uint32_t length, IoCompletion cb,
                   void* cb_arg) override;
  int submit_flush(IoCompletion cb, void* cb_arg) override;
  bool persistent() const override { return false; }

  uint64_t capacity_bytes() const { return capacity_bytes_; }
  // Bytes of memory allocated so far (whole chunks).
  uint64_t allocated_bytes() const { return allocated_chunks_ * kChunkBytes; }

 private:
  explicit RamDevice(uint64_t capacity_bytes) : capacity_bytes_(capacity_bytes) {}
  bool in_range(uint64_t offset, uint32_t length) const;

  uint64_t capacity_bytes_;
  uint64_t allocated_chunks_ = 0;
  std::vector<AlignedBytes> chunks_;  // grows up to the highest chunk written
};

}  // namespace tierwise::blockdev
