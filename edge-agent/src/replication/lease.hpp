// The ownership lease of a WB+n volume: a small record on the shared storage
// (beside the datastore) naming the epoch that owns the volume. The owner
// renews it; a peer takes the volume over when it stops (docs/write-back.md
// "Owner loss"); recovery fences a journal of an older epoch.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "cache/writeback/ownership.hpp"

namespace tierwise::replication {

/*
 * Lease file: two 512-byte copies at offsets 0 and 512; a write goes to copy
 * (sequence % 2) and the valid copy with the higher sequence wins, so a torn
 * write falls back to the previous record. Copy (integers little-endian):
 *   0  u64 magic "TWLEASE1"   8 u32 version (1)   12 u32 state (1 owned, 2 released)
 *   16 u64 sequence (writes)  24 u64 volume_id    32 u64 epoch
 *   40 u64 renewals           48 u64 destaged_through
 *   56 u16 holder length      58 holder bytes (at most kMaxHolder)
 *   508 u32 crc32c of bytes [0, 508)
 * Every change is a read-modify-write under flock(2) LOCK_EX of the file and
 * ends with fdatasync(2). (flock serialises owners and peers on one host or on
 * a file system that forwards it; storage-side fencing, SCSI-3 persistent
 * reservations, is the stronger tool where the datastore offers it.)
 */
struct LeaseRecord {
  enum class State : uint32_t { kOwned = 1, kReleased = 2 };
  uint64_t volume_id = 0;
  uint64_t epoch = 0;
  State state = State::kReleased;
  uint64_t renewals = 0;          // bumped by each renewal of the owner
  uint64_t destaged_through = 0;  // released by a takeover: records <= it are on the datastore
  std::string holder;             // who wrote it: "host:tier file" or "peer host:port"
};

inline constexpr size_t kMaxHolder = 256;

// Reads the record. Returns 0 with `*out` empty when the file is missing or
// holds no valid copy, or -errno with `error`.
int read_lease(const std::string& path, std::optional<LeaseRecord>* out, std::string* error);

// Read-modify-write of the record (the file is created when missing): `change`
// sees it (empty when none) under the lock and returns 0 to write it back or
// -errno to leave the file as it is (update_lease returns that). -errno with
// `error` on I/O errors.
int update_lease(const std::string& path, const std::function<int(std::optional<LeaseRecord>&)>& change,
                 std::string* error);

/*
 * Lifecycle of a Lease (the owner's side; cache::writeback::Ownership)
 *
 * 1. Construct with the lease file, the volume id, a holder name and the lease
 *    duration. Nothing is read yet.
 * 2. Journal recovery calls read() and acquire(); acquire() takes the next
 *    epoch and starts a thread that renews the lease every duration / 4.
 *    advance() moves it to the next epoch while held (after a peer failure).
 * 3. lost() turns true for good when a renewal finds another epoch, another
 *    volume or a released lease (a peer took over: fenced), or when no renewal
 *    succeeded for duration / 2 (a peer takes over after seeing none for a
 *    whole duration, so the owner stops first).
 * 4. Destroy: the renewals stop; the lease stays owned (dirty data may remain).
 */
class Lease final : public cache::writeback::Ownership {
 public:
  Lease(std::string path, uint64_t volume_id, std::string holder, std::chrono::milliseconds duration);
  ~Lease() override;
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;

  int read(uint64_t* epoch, bool* released, std::string* error) override;
  int acquire(uint64_t from, uint64_t journal_epoch, uint64_t* epoch, std::string* error) override;
  int advance(uint64_t* epoch, std::string* error) override;
  bool lost(std::string* reason) const override;

 private:
  void renew_loop();
  void lose(const std::string& why);

  const std::string path_;
  const uint64_t volume_id_;
  const std::string holder_;
  const std::chrono::milliseconds duration_;
  std::atomic<uint64_t> epoch_{0};  // read by the renewer thread
  std::thread renewer_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  bool lost_ = false;
  std::string reason_;
};

}  // namespace tierwise::replication
