// A write-back volume over two io_uring files in a temporary directory (its
// tier can be made to fail), the test fixture that makes the directory, and a
// loopback peer with a lease: shared by writeback_test, owner_loss_test and
// tier_failure_test.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "blockdev/aligned_buffer.hpp"
#include "blockdev/uring_file_device.hpp"
#include "blockdev/uring_queue.hpp"
#include "cache/cache_engine.hpp"
#include "cache/engine_poll.hpp"
#include "replication/lease.hpp"
#include "replication/peer_set.hpp"
#include "replication/replica_server.hpp"

namespace tierwise::cache::test {

namespace fs = std::filesystem;
namespace wb = writeback;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
constexpr uint64_t kBlock = 4096;
constexpr uint32_t kEntries = 64;
constexpr uint64_t kTierBytes = 512 * kBlock;
constexpr uint64_t kVolumeId = 7;

inline std::vector<std::byte> pattern(uint64_t seed, size_t n) {
  std::vector<std::byte> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<std::byte>((seed * 131 + i * 7) % 251);
  return v;
}

inline std::vector<std::byte> read_file_range(const fs::path& p, uint64_t offset, size_t n) {
  std::vector<std::byte> v(n);
  const int fd = ::open(p.c_str(), O_RDONLY);
  const ssize_t got = ::pread(fd, v.data(), n, static_cast<off_t>(offset));
  ::close(fd);
  if (got < static_cast<ssize_t>(n)) std::fill(v.begin() + std::max<ssize_t>(got, 0), v.end(), std::byte{0});
  return v;
}

// A device that passes every request to `inner` until fail() is called; from
// then on every read, write and flush completes with EIO (a dead tier device).
class FailingDevice final : public blockdev::BlockDevice {
 public:
  explicit FailingDevice(blockdev::BlockDevice& inner) : inner_(inner) {}
  void fail() { failing_ = true; }
  uint64_t failed_requests() const { return failed_; }
  uint32_t block_size() const override { return inner_.block_size(); }
  size_t buffer_alignment() const override { return inner_.buffer_alignment(); }
  bool persistent() const override { return inner_.persistent(); }
  int submit_read(void* buf, uint64_t offset, uint32_t length, blockdev::IoCompletion cb, void* cb_arg) override {
    return failing_ ? refuse(cb, cb_arg) : inner_.submit_read(buf, offset, length, cb, cb_arg);
  }
  int submit_write(const void* buf, uint64_t offset, uint32_t length, blockdev::IoCompletion cb,
                   void* cb_arg) override {
    return failing_ ? refuse(cb, cb_arg) : inner_.submit_write(buf, offset, length, cb, cb_arg);
  }
  int submit_flush(blockdev::IoCompletion cb, void* cb_arg) override {
    return failing_ ? refuse(cb, cb_arg) : inner_.submit_flush(cb, cb_arg);
  }

 private:
  int refuse(blockdev::IoCompletion cb, void* cb_arg) {
    ++failed_;
    cb(cb_arg, -EIO);
    return 0;
  }
  blockdev::BlockDevice& inner_;
  bool failing_ = false;
  uint64_t failed_ = 0;
};

// A write-back volume over two io_uring files in a temporary directory.
class Volume {
 public:
  explicit Volume(const fs::path& dir) : dir_(dir) {
    EXPECT_EQ(blockdev::UringQueue::create(256, &queue_), 0);
    EXPECT_EQ(blockdev::UringFileDevice::open(*queue_, (dir / "ds.img").string(), &datastore_), 0);
    EXPECT_EQ(blockdev::UringFileDevice::open(*queue_, (dir / "tier.img").string(), &tier_), 0);
    if (tier_) faulty_tier_ = std::make_unique<FailingDevice>(*tier_);
  }
  ~Volume() { close(); }

  int open(uint64_t rate, wb::ReplicaSink* replicas = nullptr, uint64_t volume_id = kVolumeId,
           wb::Ownership* ownership = nullptr) {
    WriteBackOptions o;
    o.ownership = ownership;
    o.volume_id = volume_id;
    o.journal_entries = kEntries;
    o.destage_rate_bytes_per_s = rate;
    o.replicas = replicas;
    o.poll = [this] { queue_->poll(true); };
    o.on_event = [this](std::string_view e) { events.emplace_back(e); };
    replicas_ = replicas;
    return CacheEngine::open_write_back(*datastore_, *faulty_tier_, kTierBytes, o, &engine, &report, &error);
  }
  // Drops the engine without destaging, as a crash would (the tier keeps the journal).
  void close() {
    while (queue_ && queue_->in_flight() > 0) queue_->poll(true);
    engine.reset();
  }
  void pump() { poll_engine(*queue_, *engine, replicas_ ? replicas_->wake_fd() : -1, 1); }
  template <typename Pred>
  bool pump_until(Pred done, std::chrono::milliseconds limit = std::chrono::milliseconds(5000)) {
    const auto end = Clock::now() + limit;
    while (!done() && Clock::now() < end) pump();
    return done();
  }

  struct Done {
    bool done = false;
    int status = 0;
    IoOutcome outcome;
  };
  static void on_done(void* arg, const IoOutcome& out) {
    auto* d = static_cast<Done*>(arg);
    d->done = true;
    d->status = out.status;
    d->outcome = out;
  }
  // Submits and returns without waiting; the buffer must stay alive.
  void start_write(uint64_t offset, std::vector<std::byte>& bytes, blockdev::AlignedBytes* buf, Done* d) {
    *buf = blockdev::allocate_aligned(bytes.size(), 4096);
    std::memcpy(buf->get(), bytes.data(), bytes.size());
    ASSERT_EQ(engine->submit(trace::Direction::kWrite, offset, static_cast<uint32_t>(bytes.size()),
                             buf->get(), on_done, d),
              0);
  }
  int write(uint64_t offset, std::vector<std::byte> bytes, IoOutcome* outcome = nullptr) {
    blockdev::AlignedBytes buf;
    Done d;
    start_write(offset, bytes, &buf, &d);
    pump_until([&] { return d.done; });
    if (outcome != nullptr) *outcome = d.outcome;
    return d.done ? d.status : -ETIMEDOUT;
  }
  std::vector<std::byte> read(uint64_t offset, uint32_t length) {
    auto buf = blockdev::allocate_aligned(length, 4096);
    Done d;
    EXPECT_EQ(engine->submit(trace::Direction::kRead, offset, length, buf.get(), on_done, &d), 0);
    pump_until([&] { return d.done; });
    EXPECT_EQ(d.status, 0);
    return {buf.get(), buf.get() + length};
  }
  // From now on every tier request fails with EIO.
  void fail_tier() { faulty_tier_->fail(); }
  std::vector<std::byte> datastore_bytes(uint64_t offset, size_t n) const {
    return read_file_range(dir_ / "ds.img", offset, n);
  }

  std::unique_ptr<CacheEngine> engine;
  wb::RecoveryReport report;
  std::string error;
  std::vector<std::string> events;

 private:
  fs::path dir_;
  std::unique_ptr<blockdev::UringQueue> queue_;
  std::unique_ptr<blockdev::UringFileDevice> datastore_, tier_;
  std::unique_ptr<FailingDevice> faulty_tier_;
  wb::ReplicaSink* replicas_ = nullptr;
};

class WriteBackTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tierwise-wb-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

constexpr uint64_t kNoDestage = 1;  // 1 byte/s: the destager never gets a whole block
constexpr milliseconds kLease{400};

inline replication::LeaseRecord lease_at(const fs::path& p) {
  std::optional<replication::LeaseRecord> r;
  std::string error;
  EXPECT_EQ(replication::read_lease(p.string(), &r, &error), 0) << error;
  return r.value_or(replication::LeaseRecord{});
}

template <typename Pred>
bool wait_for(Pred done, milliseconds limit = milliseconds(5000)) {
  const auto end = Clock::now() + limit;
  while (!done() && Clock::now() < end) std::this_thread::sleep_for(milliseconds(10));
  return done();
}

// A peer on a free loopback port, and a PeerSet of it.
inline void start_peer(std::unique_ptr<replication::ReplicaServer>* peer,
                std::unique_ptr<replication::PeerSet>* peers, replication::Hello hello = {}) {
  ASSERT_EQ(replication::ReplicaServer::start("127.0.0.1:0", peer), 0);
  std::string error;
  ASSERT_EQ(replication::PeerSet::connect({"127.0.0.1:" + std::to_string((*peer)->port())},
                                          kVolumeId, hello, std::chrono::milliseconds(1000), peers, &error),
            0)
      << error;
}

// An owner volume with a lease and one loopback peer that knows the datastore
// and lease paths (so it can take the volume over, or destage for the owner).
class OwnerWithPeerTest : public WriteBackTest {
 protected:
  void start_peer(std::chrono::microseconds ack_delay = std::chrono::microseconds(0), const std::string& store = {}) {
    ASSERT_EQ(replication::ReplicaServer::start("127.0.0.1:0", &peer, ack_delay,
                                                [this](const std::string& e) {
                                                  std::lock_guard lock(mu);
                                                  peer_events.push_back(e);
                                                },
                                                store),
              0);
  }
  void start_owner(Volume& v, std::chrono::microseconds peer_ack_delay = std::chrono::microseconds(0),
                   const std::string& store = {}) {
    replication::Hello hello;
    hello.lease_ms = static_cast<uint32_t>(kLease.count());
    hello.datastore = (dir_ / "ds.img").string();
    hello.lease_file = lease_path().string();
    ASSERT_NO_FATAL_FAILURE(start_peer(peer_ack_delay, store));
    std::string error;
    ASSERT_EQ(replication::PeerSet::connect({"127.0.0.1:" + std::to_string(peer->port())}, kVolumeId, hello,
                                            milliseconds(1000), &peers, &error),
              0)
        << error;
    lease = std::make_unique<replication::Lease>(lease_path().string(), kVolumeId, "owner:/tier", kLease);
    ASSERT_EQ(v.open(kNoDestage, peers.get(), kVolumeId, lease.get()), 0) << v.error;
  }
  // The owner host dies: no destage, no more renewals, the connection closes.
  void kill_owner(Volume& v) {
    v.close();
    peers.reset();
    lease.reset();
  }
  fs::path lease_path() const { return dir_ / "ds.img.lease"; }
  bool event_says(const std::string& what) {
    std::lock_guard lock(mu);
    for (const auto& e : peer_events) {
      if (e.find(what) != std::string::npos) return true;
    }
    return false;
  }

  std::unique_ptr<replication::ReplicaServer> peer;
  std::unique_ptr<replication::PeerSet> peers;
  std::unique_ptr<replication::Lease> lease;
  std::mutex mu;
  std::vector<std::string> peer_events;
};

}  // namespace tierwise::cache::test
