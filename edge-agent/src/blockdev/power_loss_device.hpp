// A block device that can lose power: it keeps what a completed flush made
// durable apart from what was only written, and a power cut leaves one of the
// states a real disk with a volatile write cache could be left in. For tests
// (the method of RocksDB's FaultInjectionTestFS and of CrashMonkey, OSDI 2018).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <span>
#include <vector>

#include "blockdev/block_device.hpp"

namespace tierwise::blockdev {

// How a PowerLossDevice behaves (create()).
struct PowerLossOptions {
  uint64_t capacity_bytes = 0;  // a multiple of 512
  // true: every request completes inside submit_* (as RamDevice). false: requests
  // wait until poll() completes them, in an order the seed chooses (io_uring
  // completes out of order too).
  bool complete_inline = false;
  uint64_t seed = 0;  // completion order of poll()
};

// What survives one power cut (cut_power()). Every draw comes from `seed`.
struct PowerCut {
  uint64_t seed = 0;
  // Each write not covered by a completed flush (completed or still in
  // flight) persists with this probability; 0: exactly the flushed image.
  double keep_probability = 0.5;
  // A persisted write of more than one sector is torn with this probability:
  // it keeps a random prefix or a random subset of its 512-byte sectors.
  double tear_probability = 0.5;
  // Writes whose lifetimes overlapped (neither completed before the other was
  // submitted) persist in a random order; false: in completion order.
  bool reorder = true;
};

// What one power cut did.
struct CutReport {
  uint64_t unflushed_writes = 0;  // writes (and discards) not covered by a completed flush
  uint64_t kept_writes = 0;       // of those, persisted (whole or torn)
  uint64_t torn_writes = 0;       // of the kept, persisted only in part
  uint64_t dropped_requests = 0;  // requests in flight whose completions never run
};

/*
 * Lifecycle of a PowerLossDevice
 *
 * 1. create(options): a zeroed device of options.capacity_bytes, whose whole
 *    content is durable. It keeps its own images (memory), two of them: the
 *    durable image and the current image (durable + every completed write).
 * 2. submit_*: block_size() is 512 and buffer_alignment() is 512; a range that
 *    is empty, unaligned or beyond the capacity, or an unaligned buffer, is
 *    refused with -EINVAL (the completion never runs). A write's bytes are
 *    copied at submission; they reach the current image when it completes
 *    (reads see completed writes only) and the durable image when a flush
 *    covers it. submit_discard is a write of zeros with the same rules.
 * 3. Completion: inline inside submit_* (options.complete_inline), or from
 *    poll(), which completes queued requests in a seeded random order;
 *    completions may submit more requests. Status is always 0: this device
 *    loses power, it does not fail I/O.
 * 4. Flush: submit_flush covers every write that *completed before it was
 *    submitted*; when the flush completes they are durable. Writes still in
 *    flight at its submission, or completed after it, are not covered (the
 *    strict reading of a volatile write cache: NVMe Flush, SCSI SYNCHRONIZE
 *    CACHE, Linux REQ_PREFLUSH). The BlockDevice interface has no FUA write;
 *    its users flush instead, so this device has none either.
 * 5. cut_power(cut): power fails and comes back. Every request in flight is
 *    dropped: its completion never runs (destroy the device's user, e.g. the
 *    cache engine, without waiting for them). The durable image then takes a
 *    random subset of the writes no completed flush covered (in flight ones
 *    included), each possibly torn at 512-byte boundaries, applied in an order
 *    consistent with their completions (writes in flight together in any
 *    order): one of the states a real power cut could leave. The device then
 *    serves that image as both durable and current, and takes new requests.
 * 6. Destroy at any time: nothing runs in the background.
 *
 * Single-threaded, like every BlockDevice. persistent() is true: it stands for
 * a disk, so a write-back tier may live on it as well as a datastore.
 */
class PowerLossDevice final : public BlockDevice {
 public:
  static constexpr uint32_t kSectorBytes = 512;

  // Returns 0, or -EINVAL for a zero capacity or one that is not a multiple of 512.
  static int create(const PowerLossOptions& options, std::unique_ptr<PowerLossDevice>* out);
  ~PowerLossDevice() override;

  uint32_t block_size() const override { return kSectorBytes; }
  size_t buffer_alignment() const override { return kSectorBytes; }
  int submit_read(void* buf, uint64_t offset, uint32_t length, IoCompletion cb,
                  void* cb_arg) override;
  int submit_write(const void* buf, uint64_t offset, uint32_t length, IoCompletion cb,
                   void* cb_arg) override;
  int submit_flush(IoCompletion cb, void* cb_arg) override;
  int submit_discard(uint64_t offset, uint32_t length, IoCompletion cb, void* cb_arg) override;

  // Completes up to `max` queued requests (those submitted by the completions
  // too), each picked at random among the queued ones. Returns how many ran.
  size_t poll(size_t max = SIZE_MAX);
  // Requests submitted and not yet completed.
  size_t in_flight() const { return queue_.size(); }

  // Power fails and returns (lifecycle step 5). `report` may be null.
  void cut_power(const PowerCut& cut, CutReport* report);

  uint64_t capacity_bytes() const { return capacity_; }
  // Bytes [offset, offset + out.size()) of the durable image, for inspection;
  // -EINVAL when the range leaves the capacity.
  int read_durable(uint64_t offset, std::span<std::byte> out) const;
  uint64_t flushes_submitted() const { return flushes_submitted_; }
  uint64_t flushes_completed() const { return flushes_completed_; }

 private:
  struct Write;
  struct Request;
  explicit PowerLossDevice(const PowerLossOptions& options);
  bool valid(uint64_t offset, uint32_t length) const;
  int enqueue(std::unique_ptr<Request> r);
  void complete(std::unique_ptr<Request> r);
  // Writes completed before `completed_through` become durable.
  void make_durable(uint64_t completed_through);

  uint64_t capacity_;
  bool inline_;
  std::mt19937_64 rng_;
  std::vector<std::byte> durable_, current_;
  std::deque<std::unique_ptr<Write>> volatile_;  // completed, not flushed; completion order
  std::vector<std::unique_ptr<Request>> queue_;  // submitted, not completed
  uint64_t tick_ = 0;         // counts submissions and completions
  uint64_t completions_ = 0;  // writes completed so far (their completion order)
  uint64_t flushes_submitted_ = 0, flushes_completed_ = 0;
};

}  // namespace tierwise::blockdev
