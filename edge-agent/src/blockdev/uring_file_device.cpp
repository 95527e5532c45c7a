#include "blockdev/uring_file_device.hpp"

#include <fcntl.h>
#include <linux/falloc.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace tierwise::blockdev {
namespace {

// True when direct I/O on `fd` accepts 512-byte aligned offsets and 512-byte
// aligned buffers. Kernels before 6.1 do not report STATX_DIOALIGN: trust open().
bool direct_io_fits(int fd) {
  struct statx st {};
  if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &st) != 0) return true;
  if ((st.stx_mask & STATX_DIOALIGN) == 0) return true;
  return st.stx_dio_offset_align != 0 && st.stx_dio_offset_align <= UringFileDevice::kBlockSize &&
         st.stx_dio_mem_align <= UringFileDevice::kBufferAlignment;
}

}  // namespace

int UringFileDevice::open(UringQueue& queue, const std::string& path,
                          std::unique_ptr<UringFileDevice>* out) {
  constexpr int kFlags = O_RDWR | O_CREAT | O_CLOEXEC;
  bool direct = true;
  int fd = ::open(path.c_str(), kFlags | O_DIRECT, 0600);
  if (fd < 0 && errno == EINVAL) {
    direct = false;
    fd = ::open(path.c_str(), kFlags, 0600);
  }
  if (fd < 0) return -errno;
  if (direct && !direct_io_fits(fd)) {
    // Drop O_DIRECT on the open file description rather than reopening.
    const int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_DIRECT) < 0) {
      const int err = errno;
      ::close(fd);
      return -err;
    }
    direct = false;
  }
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return -err;
  }
  out->reset(new UringFileDevice(queue, fd, direct, static_cast<uint64_t>(st.st_size)));
  return 0;
}

UringFileDevice::~UringFileDevice() { ::close(fd_); }

int UringFileDevice::check(const void* buf, uint64_t offset, uint32_t length) const {
  if (length == 0 || offset % kBlockSize != 0 || length % kBlockSize != 0) return -EINVAL;
  if (reinterpret_cast<uintptr_t>(buf) % kBufferAlignment != 0) return -EINVAL;
  return 0;
}

int UringFileDevice::submit_read(void* buf, uint64_t offset, uint32_t length, IoCompletion cb,
                                 void* cb_arg) {
  if (const int rc = check(buf, offset, length); rc != 0) return rc;
  queue_.enqueue_read(fd_, buf, offset, length, &size_hint_, cb, cb_arg);
  return 0;
}

int UringFileDevice::submit_write(const void* buf, uint64_t offset, uint32_t length,
                                  IoCompletion cb, void* cb_arg) {
  if (const int rc = check(buf, offset, length); rc != 0) return rc;
  size_hint_ = std::max(size_hint_, offset + length);
  queue_.enqueue_write(fd_, buf, offset, length, cb, cb_arg);
  return 0;
}

int UringFileDevice::submit_discard(uint64_t offset, uint32_t length, IoCompletion cb,
                                    void* cb_arg) {
  if (length == 0 || offset % kBlockSize != 0 || length % kBlockSize != 0) return -EINVAL;
  queue_.enqueue_fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, offset, length, cb,
                           cb_arg);
  return 0;
}

int UringFileDevice::submit_flush(IoCompletion cb, void* cb_arg) {
  queue_.enqueue_fsync(fd_, cb, cb_arg);
  return 0;
}

}  // namespace tierwise::blockdev
