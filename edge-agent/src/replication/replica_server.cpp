#include "replication/replica_server.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "replication/frame.hpp"
#include "replication/lease.hpp"
#include "replication/takeover.hpp"
#include "replication/tcp.hpp"

namespace tierwise::replication {
namespace {

constexpr int kAcceptPollMs = 100;
// How often volumes without an owner connection are looked at (their lease read).
constexpr auto kWatchInterval = std::chrono::milliseconds(100);

// Records acknowledged after one flush of the store at most, so that a steady
// stream from the owner still gets its ACKs well within its timeout.
constexpr size_t kMaxUnacked = 32;

// True when more bytes wait on `fd` now (the next frame's ACK can share a flush).
bool readable_now(int fd) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, 0) > 0;
}

}  // namespace

int ReplicaServer::start(const std::string& address, std::unique_ptr<ReplicaServer>* out,
                         std::chrono::microseconds ack_delay,
                         std::function<void(const std::string&)> on_event, const std::string& store_dir) {
  std::optional<ReplicaStore> store;
  std::map<uint64_t, StoredVolume> loaded;
  if (!store_dir.empty()) {
    std::string error;
    store.emplace();
    if (const int rc = ReplicaStore::open(store_dir, &*store, &loaded, &error); rc != 0) {
      if (on_event) on_event(error);
      return rc;
    }
  }
  const int fd = listen_tcp(address);
  if (fd < 0) return fd;
  std::unique_ptr<ReplicaServer> server(new ReplicaServer(fd, bound_port(fd), ack_delay, std::move(on_event)));
  server->store_ = std::move(store);
  for (auto& [id, stored] : loaded) {
    Volume& v = server->volumes_[id];
    v.hello = stored.hello;
    for (const auto& [seq, record] : stored.records) server->held_bytes_ += record.size();
    v.records = std::move(stored.records);
    v.settled = false;  // watched: its owner may be gone
    if (server->on_event_) {
      server->on_event_("volume " + std::to_string(id) + ": loaded " + std::to_string(v.records.size()) +
                        " records of epoch " + std::to_string(v.hello.epoch) + " from " + store_dir);
    }
  }
  server->acceptor_ = std::thread([s = server.get()] { s->accept_loop(); });
  server->watcher_ = std::thread([s = server.get()] { s->watch_loop(); });
  *out = std::move(server);
  return 0;
}

ReplicaServer::~ReplicaServer() {
  stopping_.store(true);
  acceptor_.join();
  watcher_.join();
  {
    std::lock_guard lock(mu_);
    for (int fd : connections_) ::shutdown(fd, SHUT_RDWR);
  }
  for (std::thread& t : workers_) t.join();
  ::close(listen_fd_);
}

size_t ReplicaServer::held_records(uint64_t volume_id) const {
  std::lock_guard lock(mu_);
  const auto it = volumes_.find(volume_id);
  return it == volumes_.end() ? 0 : it->second.records.size();
}

uint64_t ReplicaServer::held_bytes() const {
  std::lock_guard lock(mu_);
  return held_bytes_;
}

void ReplicaServer::accept_loop() {
  while (!stopping_.load()) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, kAcceptPollMs) <= 0) continue;
    const int fd = accept_tcp(listen_fd_);
    if (fd < 0) continue;
    std::lock_guard lock(mu_);
    connections_.push_back(fd);
    workers_.emplace_back([this, fd] { serve(fd); });
  }
}

void ReplicaServer::drop(uint64_t volume_id, Volume& v) {
  for (const auto& [seq, record] : v.records) held_bytes_ -= record.size();
  v.records.clear();
  if (store_) store_->drop(volume_id);
}

bool ReplicaServer::acknowledge(int fd, std::vector<uint64_t>* seqs, uint64_t trimmed, uint64_t* confirmed) {
  if (seqs->empty() && trimmed == *confirmed) return true;
  if (store_) {
    std::lock_guard lock(mu_);
    if (const int rc = store_->sync(); rc != 0) {
      std::cerr << "tierwise-agent peer: closing a connection: the replica store cannot flush: "
                << std::strerror(-rc) << '\n';
      return false;
    }
  }
  std::vector<std::byte> frames;
  for (uint64_t seq : *seqs) encode_frame(FrameType::kAck, seq, {}, &frames);
  if (trimmed != *confirmed) encode_frame(FrameType::kTrimmed, trimmed, {}, &frames);
  seqs->clear();
  *confirmed = trimmed;
  return write_all(fd, frames) == 0;
}

bool ReplicaServer::destage_for_owner(int fd, const PeerSession& session, uint64_t watermark) {
  std::map<uint64_t, std::vector<std::byte>> records;
  {
    std::lock_guard lock(mu_);
    const Volume& v = volumes_[session.volume];
    if (v.hello.epoch != session.hello.epoch) return false;  // superseded by a newer owner
    records.insert(v.records.upper_bound(watermark), v.records.end());
  }
  TakeoverReport report;
  std::string error;
  const int rc = destage_records(session.hello.datastore, records, &report, &error);
  if (on_event_) {
    on_event_(rc == 0 ? "volume " + std::to_string(session.volume) + ": destaged " + std::to_string(report.records) +
                            " records (" + std::to_string(report.bytes) + " bytes) for its owner, whose tier failed"
                      : "volume " + std::to_string(session.volume) + ": destage for its owner failed: " + error);
  }
  std::vector<std::byte> frame;
  const std::span<const std::byte> reason(reinterpret_cast<const std::byte*>(error.data()),
                                          rc == 0 ? 0 : std::min<size_t>(error.size(), kMaxPayload));
  encode_frame(FrameType::kDestaged, std::max(watermark, report.destaged_through), reason, &frame);
  return write_all(fd, frame) == 0;
}

bool ReplicaServer::greet(const PeerSession& session, std::string* error) {
  std::lock_guard lock(mu_);
  Volume& v = volumes_[session.volume];
  if (session.hello.epoch < v.hello.epoch) {
    *error = "fenced: HELLO of epoch " + std::to_string(session.hello.epoch) + " after epoch " +
             std::to_string(v.hello.epoch) + " of volume " + std::to_string(session.volume);
    return false;
  }
  if (session.hello.epoch > v.hello.epoch || (v.hello.epoch == 0 && v.records.empty())) {
    drop(session.volume, v);  // an older epoch's records: recovered by the new owner or taken over
    v.connections = 0;
    if (store_ && store_->hello(session.volume, session.hello) != 0) {
      *error = "the replica store cannot record volume " + std::to_string(session.volume);
      return false;
    }
  }
  v.hello = session.hello;
  ++v.connections;
  v.watching = false;
  v.settled = false;
  return true;
}

void ReplicaServer::serve(int fd) {
  Frame frame;
  std::string error;
  PeerSession session;
  bool counted = false;
  std::vector<uint64_t> unacked;  // stored, acknowledged after the next flush
  uint64_t trimmed = 0;           // trims applied, confirmed after the next flush
  uint64_t confirmed = 0;
  for (;;) {
    const bool batch_full = unacked.size() >= kMaxUnacked;
    if ((batch_full || !readable_now(fd)) && !acknowledge(fd, &unacked, trimmed, &confirmed)) break;
    const int rc = read_frame(fd, &frame, &error);
    if (rc != 0) {
      if (rc == -EBADMSG) std::cerr << "tierwise-agent peer: closing a connection: " << error << '\n';
      break;
    }
    const PeerStep step = on_owner_frame(session, frame, &error);
    if (step == PeerStep::kClose) {
      std::cerr << "tierwise-agent peer: closing a connection: " << error << '\n';
      break;
    }
    if (step == PeerStep::kGreet) {
      if (!greet(session, &error)) {
        std::cerr << "tierwise-agent peer: closing a connection: " << error << '\n';
        break;
      }
      counted = true;
      continue;
    }
    if (step == PeerStep::kDestage) {
      if (!acknowledge(fd, &unacked, trimmed, &confirmed) || !destage_for_owner(fd, session, frame.value)) break;
      continue;
    }
    bool kept = true;
    {
      std::lock_guard lock(mu_);
      Volume& v = volumes_[session.volume];
      if (v.hello.epoch != session.hello.epoch) break;  // superseded by a newer owner: never acknowledge
      if (step == PeerStep::kTrim) {
        for (auto it = v.records.begin(); it != v.records.end() && it->first <= frame.value;) {
          held_bytes_ -= it->second.size();
          it = v.records.erase(it);
        }
        if (store_ && store_->trim(session.volume, frame.value, v.records.empty(), v.hello) != 0) break;
        trimmed = std::max(trimmed, frame.value);
        continue;
      }
      kept = !store_ || store_->record(session.volume, frame.value, frame.payload) == 0;
      if (kept) {
        auto& slot = v.records[frame.value];
        held_bytes_ += frame.payload.size() - slot.size();
        slot = std::move(frame.payload);
      }
    }
    if (!kept) {
      std::cerr << "tierwise-agent peer: closing a connection: the replica store cannot append\n";
      break;
    }
    if (ack_delay_.count() > 0) std::this_thread::sleep_for(ack_delay_);
    unacked.push_back(frame.value);
  }
  std::lock_guard lock(mu_);
  if (counted) {
    Volume& v = volumes_[session.volume];
    if (v.hello.epoch == session.hello.epoch && --v.connections == 0) {
      v.watching = false;  // the watcher starts the owner's clock on its next look
    }
  }
  ::close(fd);
  std::erase(connections_, fd);
}

void ReplicaServer::watch_loop() {
  while (!stopping_.load()) {
    std::this_thread::sleep_for(kWatchInterval);
    std::vector<uint64_t> orphans;
    {
      std::lock_guard lock(mu_);
      for (const auto& [id, v] : volumes_) {
        if (v.connections == 0 && v.hello.epoch > 0 && !v.settled) orphans.push_back(id);
      }
    }
    for (uint64_t id : orphans) watch(id);
  }
}

// One look at a volume whose owner is not connected (watch_loop).
void ReplicaServer::watch(uint64_t volume_id) {
  Hello hello;
  {
    std::lock_guard lock(mu_);
    hello = volumes_[volume_id].hello;
  }
  std::optional<LeaseRecord> lease;
  std::string error;
  if (read_lease(hello.lease_file, &lease, &error) != 0 || !lease) return;  // look again later
  const auto now = std::chrono::steady_clock::now();
  std::map<uint64_t, std::vector<std::byte>> records;
  uint64_t renewals = 0;
  {
    std::lock_guard lock(mu_);
    Volume& v = volumes_[volume_id];
    if (v.connections > 0 || v.hello.epoch != hello.epoch) return;  // the owner is back
    if (lease->epoch > hello.epoch) {
      if (on_event_) {
        on_event_("volume " + std::to_string(volume_id) + ": the lease moved to epoch " +
                  std::to_string(lease->epoch) + "; dropping " + std::to_string(v.records.size()) +
                  " records of epoch " + std::to_string(hello.epoch));
      }
      drop(volume_id, v);
      v.settled = true;
      return;
    }
    if (!v.watching || lease->renewals != v.renewals_seen) {
      v.watching = true;  // the owner's clock starts (again) now
      v.renewals_seen = lease->renewals;
      v.quiet_since = now;
      return;
    }
    if (now - v.quiet_since < std::chrono::milliseconds(hello.lease_ms)) return;
    records = v.records;  // copied: owners may reconnect while the takeover writes
    renewals = v.renewals_seen;
  }
  TakeoverReport report;
  const std::string holder = "peer port " + std::to_string(port_);
  const int rc = take_over(volume_id, hello, renewals, records, holder, &report, &error);
  std::lock_guard lock(mu_);
  Volume& v = volumes_[volume_id];
  if (rc == -EBUSY) {
    v.watching = false;  // renewed meanwhile: the owner lives
    return;
  }
  if (rc != 0 && rc != -ESTALE) {
    if (on_event_) on_event_("volume " + std::to_string(volume_id) + ": takeover failed: " + error);
    v.watching = false;
    return;
  }
  if (on_event_) {
    on_event_(rc == 0 ? "volume " + std::to_string(volume_id) + ": owner of epoch " +
                            std::to_string(hello.epoch) + " gone for " + std::to_string(hello.lease_ms) +
                            " ms: took over, destaged " + std::to_string(report.records) + " records (" +
                            std::to_string(report.bytes) + " bytes) through sequence " +
                            std::to_string(report.destaged_through) + " to " + hello.datastore +
                            ", lease released at epoch " + std::to_string(hello.epoch + 1)
                      : "volume " + std::to_string(volume_id) + ": " + error + "; dropping " +
                            std::to_string(v.records.size()) + " records of epoch " +
                            std::to_string(hello.epoch));
  }
  if (v.hello.epoch == hello.epoch) {
    drop(volume_id, v);
    v.settled = true;
  }
}

}  // namespace tierwise::replication
