#include "replication/lease.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include "common/little_endian.hpp"

#include "cache/writeback/journal_format.hpp"

namespace tierwise::replication {
namespace {

constexpr uint64_t kLeaseMagic = 0x31455341454C5754ULL;  // "TWLEASE1" little-endian
constexpr uint32_t kLeaseVersion = 1;
constexpr size_t kCopyBytes = 512;
constexpr size_t kCrcAt = 508;

using Copy = std::array<std::byte, kCopyBytes>;

using common::load_le;
using common::store_le;

uint32_t crc(const Copy& c) {
  return cache::writeback::crc32c(std::span<const std::byte>(c.data(), kCrcAt));
}

void encode(const LeaseRecord& r, uint64_t sequence, Copy* c) {
  c->fill(std::byte{0});
  std::byte* s = c->data();
  store_le<uint64_t>(s, kLeaseMagic);
  store_le<uint32_t>(s + 8, kLeaseVersion);
  store_le<uint32_t>(s + 12, static_cast<uint32_t>(r.state));
  store_le<uint64_t>(s + 16, sequence);
  store_le<uint64_t>(s + 24, r.volume_id);
  store_le<uint64_t>(s + 32, r.epoch);
  store_le<uint64_t>(s + 40, r.renewals);
  store_le<uint64_t>(s + 48, r.destaged_through);
  const size_t n = std::min(r.holder.size(), kMaxHolder);
  store_le<uint16_t>(s + 56, static_cast<uint16_t>(n));
  std::memcpy(s + 58, r.holder.data(), n);
  store_le<uint32_t>(s + kCrcAt, crc(*c));
}

bool decode(const Copy& c, LeaseRecord* r, uint64_t* sequence) {
  const std::byte* s = c.data();
  if (load_le<uint64_t>(s) != kLeaseMagic || load_le<uint32_t>(s + 8) != kLeaseVersion) return false;
  if (load_le<uint32_t>(s + kCrcAt) != crc(c)) return false;
  const uint32_t state = load_le<uint32_t>(s + 12);
  const uint16_t n = load_le<uint16_t>(s + 56);
  if ((state != 1 && state != 2) || n > kMaxHolder) return false;
  r->state = static_cast<LeaseRecord::State>(state);
  *sequence = load_le<uint64_t>(s + 16);
  r->volume_id = load_le<uint64_t>(s + 24);
  r->epoch = load_le<uint64_t>(s + 32);
  r->renewals = load_le<uint64_t>(s + 40);
  r->destaged_through = load_le<uint64_t>(s + 48);
  r->holder.assign(reinterpret_cast<const char*>(s + 58), n);
  return true;
}

// The newest valid copy in `fd` and its sequence (0 when none).
int read_copies(int fd, std::optional<LeaseRecord>* out, uint64_t* sequence) {
  *out = std::nullopt;
  *sequence = 0;
  for (int i = 0; i < 2; ++i) {
    Copy c{};
    const ssize_t n = ::pread(fd, c.data(), kCopyBytes, static_cast<off_t>(i * kCopyBytes));
    if (n < 0) return -errno;
    if (static_cast<size_t>(n) < kCopyBytes) continue;
    LeaseRecord r;
    uint64_t seq = 0;
    if (decode(c, &r, &seq) && (!*out || seq > *sequence)) {
      *out = r;
      *sequence = seq;
    }
  }
  return 0;
}

std::string describe(const LeaseRecord& r) {
  return "epoch " + std::to_string(r.epoch) +
         (r.state == LeaseRecord::State::kOwned ? " owned by " : " released by ") + r.holder;
}

}  // namespace

int read_lease(const std::string& path, std::optional<LeaseRecord>* out, std::string* error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *out = std::nullopt;
    if (errno == ENOENT) return 0;
    *error = "lease " + path + ": " + std::strerror(errno);
    return -errno;
  }
  uint64_t sequence = 0;
  const int rc = read_copies(fd, out, &sequence);
  ::close(fd);
  if (rc != 0) *error = "lease " + path + ": " + std::strerror(-rc);
  return rc;
}

int update_lease(const std::string& path, const std::function<int(std::optional<LeaseRecord>&)>& change,
                 std::string* error) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    *error = "lease " + path + ": " + std::strerror(errno);
    return -errno;
  }
  int rc = ::flock(fd, LOCK_EX) == 0 ? 0 : -errno;
  std::optional<LeaseRecord> record;
  uint64_t sequence = 0;
  if (rc == 0) rc = read_copies(fd, &record, &sequence);
  if (rc == 0) {
    rc = change(record);
    if (rc == 0 && record) {
      Copy c;
      encode(*record, sequence + 1, &c);
      const off_t at = static_cast<off_t>(((sequence + 1) % 2) * kCopyBytes);
      if (::pwrite(fd, c.data(), kCopyBytes, at) != static_cast<ssize_t>(kCopyBytes) || ::fdatasync(fd) != 0) {
        rc = errno != 0 ? -errno : -EIO;
        *error = "lease " + path + ": " + std::strerror(-rc);
      }
    }
  } else {
    *error = "lease " + path + ": " + std::strerror(-rc);
  }
  ::close(fd);  // drops the lock
  return rc;
}

Lease::Lease(std::string path, uint64_t volume_id, std::string holder, std::chrono::milliseconds duration)
    : path_(std::move(path)), volume_id_(volume_id), holder_(std::move(holder)), duration_(duration) {}

Lease::~Lease() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (renewer_.joinable()) renewer_.join();
}

int Lease::read(uint64_t* epoch, bool* released, std::string* error) {
  std::optional<LeaseRecord> r;
  if (const int rc = read_lease(path_, &r, error); rc != 0) return rc;
  if (r && r->volume_id != volume_id_) {
    *error = "lease " + path_ + " belongs to volume " + std::to_string(r->volume_id) + ", not " +
             std::to_string(volume_id_);
    return -EINVAL;
  }
  *epoch = r ? r->epoch : 0;
  *released = !r || r->state == LeaseRecord::State::kReleased;
  return 0;
}

int Lease::acquire(uint64_t from, uint64_t journal_epoch, uint64_t* epoch, std::string* error) {
  std::string why;
  const int rc = update_lease(path_, [&](std::optional<LeaseRecord>& r) {
    const uint64_t now = r ? r->epoch : 0;
    if (r && r->volume_id != volume_id_) {
      why = "it belongs to volume " + std::to_string(r->volume_id);
      return -EINVAL;
    }
    if (now != from) {
      why = "it moved from epoch " + std::to_string(from) + " to " + describe(*r);
      return -ESTALE;
    }
    // The same holder's journal of an older epoch: it advanced its own epoch
    // after a drain and stopped before writing it in the superblock.
    const bool own_advance = r && r->holder == holder_ && journal_epoch < from;
    if (r && r->state == LeaseRecord::State::kOwned && journal_epoch != from && !own_advance) {
      why = describe(*r) + " and this tier holds no journal of that epoch: its dirty data may be "
            "only on its peers, which take the volume over once the lease is not renewed for " +
            std::to_string(duration_.count()) + " ms; start again after that";
      return -EBUSY;
    }
    LeaseRecord next;
    next.volume_id = volume_id_;
    next.epoch = now + 1;
    next.state = LeaseRecord::State::kOwned;
    next.holder = holder_;
    r = next;
    return 0;
  }, error);
  if (rc != 0) {
    if (!why.empty()) *error = "cannot take the lease " + path_ + ": " + why;
    return rc;
  }
  epoch_ = from + 1;
  *epoch = epoch_;
  renewer_ = std::thread([this] { renew_loop(); });
  return 0;
}

int Lease::advance(uint64_t* epoch, std::string* error) {
  std::string why;
  const uint64_t held = epoch_.load();
  const int rc = update_lease(path_, [&](std::optional<LeaseRecord>& r) {
    if (!r || r->volume_id != volume_id_ || r->epoch != held || r->state != LeaseRecord::State::kOwned) {
      why = r ? describe(*r) + " now" : "the lease record is gone";
      return -ESTALE;
    }
    r->epoch = held + 1;
    r->renewals = 0;
    return 0;
  }, error);
  if (rc != 0) {
    if (!why.empty()) *error = "cannot advance the lease " + path_ + ": " + why;
    return rc;
  }
  epoch_.store(held + 1);
  *epoch = held + 1;
  return 0;
}

bool Lease::lost(std::string* reason) const {
  std::lock_guard lock(mu_);
  if (lost_) *reason = reason_;
  return lost_;
}

void Lease::lose(const std::string& why) {
  std::lock_guard lock(mu_);
  if (lost_) return;
  lost_ = true;
  reason_ = why;
}

void Lease::renew_loop() {
  using Clock = std::chrono::steady_clock;
  Clock::time_point renewed = Clock::now();
  for (;;) {
    {
      std::unique_lock lock(mu_);
      if (cv_.wait_for(lock, duration_ / 4, [this] { return stopping_ || lost_; })) return;
    }
    const Clock::time_point attempt = Clock::now();
    std::string why, error;
    const int rc = update_lease(path_, [&](std::optional<LeaseRecord>& r) {
      if (!r || r->volume_id != volume_id_ || r->epoch != epoch_ || r->state != LeaseRecord::State::kOwned) {
        why = r ? describe(*r) + " now" : "the lease record is gone";
        return -ESTALE;
      }
      ++r->renewals;
      return 0;
    }, &error);
    if (rc == 0) {
      renewed = attempt;
    } else if (rc == -ESTALE) {
      lose("lease " + path_ + ": " + why);
    } else if (Clock::now() - renewed > duration_ / 2) {
      lose("the lease could not be renewed for " + std::to_string(duration_.count() / 2) + " ms: " + error);
    }
  }
}

}  // namespace tierwise::replication
