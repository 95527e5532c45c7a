#include "blockdev/ram_device.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace tierwise::blockdev {

int RamDevice::create(uint64_t capacity_bytes, std::unique_ptr<RamDevice>* out) {
  if (capacity_bytes == 0) return -EINVAL;
  out->reset(new RamDevice(capacity_bytes));
  return 0;
}

bool RamDevice::in_range(uint64_t offset, uint32_t length) const {
  return length > 0 && offset < capacity_bytes_ && length <= capacity_bytes_ - offset;
}

int RamDevice::submit_read(void* buf, uint64_t offset, uint32_t length, IoCompletion cb,
                           void* cb_arg) {
  if (!in_range(offset, length)) return -EINVAL;
  auto* out = static_cast<std::byte*>(buf);
  while (length > 0) {
    const uint64_t chunk = offset / kChunkBytes;
    const uint64_t within = offset % kChunkBytes;
    const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(length, kChunkBytes - within));
    if (chunk < chunks_.size() && chunks_[chunk]) {
      std::memcpy(out, chunks_[chunk].get() + within, n);
    } else {
      std::memset(out, 0, n);
    }
    out += n;
    offset += n;
    length -= n;
  }
  cb(cb_arg, 0);
  return 0;
}

int RamDevice::submit_write(const void* buf, uint64_t offset, uint32_t length, IoCompletion cb,
                            void* cb_arg) {
  if (!in_range(offset, length)) return -EINVAL;
  const auto* in = static_cast<const std::byte*>(buf);
  while (length > 0) {
    const uint64_t chunk = offset / kChunkBytes;
    const uint64_t within = offset % kChunkBytes;
    const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(length, kChunkBytes - within));
    if (chunk >= chunks_.size()) chunks_.resize(chunk + 1);
    if (!chunks_[chunk]) {
      chunks_[chunk] = allocate_aligned(kChunkBytes, 4096);
      if (!chunks_[chunk]) {
        cb(cb_arg, -ENOMEM);
        return 0;
      }
      std::memset(chunks_[chunk].get(), 0, kChunkBytes);
      ++allocated_chunks_;
    }
    std::memcpy(chunks_[chunk].get() + within, in, n);
    in += n;
    offset += n;
    length -= n;
  }
  cb(cb_arg, 0);
  return 0;
}

int RamDevice::submit_flush(IoCompletion cb, void* cb_arg) {
  cb(cb_arg, 0);  // memory has no volatile write cache to flush
  return 0;
}

}  // namespace tierwise::blockdev
