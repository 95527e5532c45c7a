// A planted bug for the power-loss harness to catch: a device wrapper that
// acknowledges a flush at once without passing it on, so whatever the cache
// engine acknowledges after "the flush" (the group commit of write-back, the
// datastore flush of FLUSH and of the watermark) is still volatile. A drive
// that lies about flushes does exactly this; a harness that does not notice
// proves nothing.
#pragma once

#include "blockdev/block_device.hpp"

namespace tierwise::test::plsim {

class LyingFlushDevice final : public blockdev::BlockDevice {
 public:
  explicit LyingFlushDevice(blockdev::BlockDevice& inner) : inner_(inner) {}

  uint32_t block_size() const override { return inner_.block_size(); }
  size_t buffer_alignment() const override { return inner_.buffer_alignment(); }
  int submit_read(void* buf, uint64_t offset, uint32_t length, blockdev::IoCompletion cb,
                  void* cb_arg) override {
    return inner_.submit_read(buf, offset, length, cb, cb_arg);
  }
  int submit_write(const void* buf, uint64_t offset, uint32_t length, blockdev::IoCompletion cb,
                   void* cb_arg) override {
    return inner_.submit_write(buf, offset, length, cb, cb_arg);
  }
  // The bug: success without flushing anything.
  int submit_flush(blockdev::IoCompletion cb, void* cb_arg) override {
    cb(cb_arg, 0);
    return 0;
  }
  int submit_discard(uint64_t offset, uint32_t length, blockdev::IoCompletion cb,
                     void* cb_arg) override {
    return inner_.submit_discard(offset, length, cb, cb_arg);
  }
  bool persistent() const override { return inner_.persistent(); }

 private:
  blockdev::BlockDevice& inner_;
};

}  // namespace tierwise::test::plsim
