#include "replication/peer_set.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "replication/frame.hpp"
#include "replication/protocol.hpp"
#include "replication/tcp.hpp"

namespace tierwise::replication {
namespace {

constexpr auto kConnectTimeout = std::chrono::milliseconds(2000);
constexpr int kReceivePollMs = 50;

}  // namespace

int PeerSet::connect(const std::vector<std::string>& addresses, uint64_t volume_id,
                     const Hello& hello, std::chrono::milliseconds ack_timeout,
                     std::unique_ptr<PeerSet>* out, std::string* error) {
  const int wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (wake < 0) return -errno;
  std::unique_ptr<PeerSet> set(new PeerSet(ack_timeout, wake, volume_id, hello));
  for (const std::string& address : addresses) {
    auto peer = std::make_unique<Peer>();
    peer->address = address;
    peer->fd = connect_tcp(address, kConnectTimeout);
    if (peer->fd < 0) {
      *error = "peer " + address + ": " + std::strerror(-peer->fd);
      return peer->fd;
    }
    set->peers_.push_back(std::move(peer));
  }
  for (auto& p : set->peers_) {
    Peer& peer = *p;
    peer.sender = std::thread([s = set.get(), &peer] { s->run_sender(peer); });
    peer.receiver = std::thread([s = set.get(), &peer] { s->run_receiver(peer); });
  }
  *out = std::move(set);
  return 0;
}

PeerSet::~PeerSet() {
  for (auto& p : peers_) {
    {
      std::lock_guard lock(p->mu);
      p->closing = true;
    }
    p->cv.notify_all();
    ::shutdown(p->fd, SHUT_RDWR);
  }
  for (auto& p : peers_) {
    if (p->sender.joinable()) p->sender.join();
    if (p->receiver.joinable()) p->receiver.join();
    ::close(p->fd);
  }
  ::close(wake_fd_);
}

void PeerSet::start(uint64_t epoch) {
  hello_.epoch = epoch;
  std::vector<std::byte> payload;
  encode_hello(hello_, &payload);
  for (auto& p : peers_) {
    std::vector<std::byte> frame;
    encode_frame(FrameType::kHello, volume_id_, payload, &frame);
    enqueue(*p, std::move(frame));
  }
}

void PeerSet::enqueue(Peer& p, std::vector<std::byte> frame) {
  {
    std::lock_guard lock(p.mu);
    p.queue.push_back(std::move(frame));
  }
  p.cv.notify_one();
}

void PeerSet::send(uint64_t seq, std::span<const std::byte> record) {
  if (failed_.load()) return;
  std::vector<std::byte> frame;
  encode_frame(FrameType::kRecord, seq, record, &frame);
  for (auto& p : peers_) {
    p->sent.store(std::max(p->sent.load(), seq));  // before the peer can acknowledge it
    enqueue(*p, frame);
  }
}

void PeerSet::trim(uint64_t watermark) {
  if (failed_.load()) return;
  std::vector<std::byte> frame;
  encode_frame(FrameType::kTrim, watermark, {}, &frame);
  for (auto& p : peers_) {
    p->trim_sent.store(std::max(p->trim_sent.load(), watermark));  // before the peer can confirm it
    enqueue(*p, frame);
  }
}

void PeerSet::destage(uint64_t watermark) {
  if (failed_.load() || peers_.empty()) return;
  Peer& p = *peers_.front();
  {
    std::lock_guard lock(p.mu);
    p.destage.destage_asked = true;  // before the peer can answer
    p.destage.destage_watermark = watermark;
  }
  std::vector<std::byte> frame;
  encode_frame(FrameType::kDestage, watermark, {}, &frame);
  enqueue(p, std::move(frame));
}

int PeerSet::destaged(uint64_t* through, std::string* error) const {
  if (failed(error)) return -EIO;
  if (peers_.empty()) {
    *error = "no peers";
    return -EIO;
  }
  Peer& p = *peers_.front();
  std::lock_guard lock(p.mu);
  if (!p.destage.destage_answered) return -EINPROGRESS;
  *through = p.destage.destaged_through;
  if (p.destage.destage_error.empty()) return 0;
  *error = "peer " + p.address + ": " + p.destage.destage_error;
  return -EIO;
}

uint64_t PeerSet::trimmed_through() const {
  uint64_t low = UINT64_MAX;
  for (const auto& p : peers_) low = std::min(low, p->trimmed.load());
  return peers_.empty() ? 0 : low;
}

uint64_t PeerSet::acked_through() const {
  uint64_t low = UINT64_MAX;
  for (const auto& p : peers_) low = std::min(low, p->acked.load());
  return peers_.empty() ? 0 : low;
}

bool PeerSet::failed(std::string* reason) const {
  if (!failed_.load()) return false;
  std::lock_guard lock(failure_mu_);
  *reason = failure_;
  return true;
}

void PeerSet::wake() const {
  const uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = ::write(wake_fd_, &one, sizeof one);
}

void PeerSet::fail(const Peer& p, const std::string& why) {
  {
    std::lock_guard lock(failure_mu_);
    if (failed_.load()) return;
    failure_ = "peer " + p.address + ": " + why;
    failed_.store(true);
  }
  wake();
}

void PeerSet::run_sender(Peer& p) {
  for (;;) {
    std::vector<std::byte> frame;
    {
      std::unique_lock lock(p.mu);
      p.cv.wait(lock, [&] { return p.closing || !p.queue.empty(); });
      if (p.closing) return;
      frame = std::move(p.queue.front());
      p.queue.pop_front();
    }
    if (failed_.load()) continue;  // drop: the volume falls back to write-through
    if (const int rc = write_all(p.fd, frame); rc != 0) {
      fail(p, std::string("send: ") + std::strerror(-rc));
    }
  }
}

void PeerSet::run_receiver(Peer& p) {
  auto last_progress = std::chrono::steady_clock::now();
  for (;;) {
    pollfd pfd{p.fd, POLLIN, 0};
    const int ready = ::poll(&pfd, 1, kReceivePollMs);
    {
      std::lock_guard lock(p.mu);
      if (p.closing) return;
    }
    const auto now = std::chrono::steady_clock::now();
    if (ready == 0) {
      const bool waiting = p.sent.load() > p.acked.load();
      if (!waiting) last_progress = now;
      if (waiting && now - last_progress > ack_timeout_) {
        fail(p, "no acknowledgement for " + std::to_string(ack_timeout_.count()) + " ms");
        return;
      }
      continue;
    }
    Frame frame;
    std::string error;
    if (const int rc = read_frame(p.fd, &frame, &error); rc != 0) {
      fail(p, rc == -EBADMSG ? error : std::string("receive: ") + std::strerror(-rc));
      return;
    }
    PeerProgress progress;
    {
      std::lock_guard lock(p.mu);
      progress = p.destage;
    }
    progress.sent = p.sent.load();
    progress.trim_sent = p.trim_sent.load();
    progress.acked = p.acked.load();
    progress.trimmed = p.trimmed.load();
    if (on_peer_frame(frame, &progress, &error) != 0) {
      fail(p, error);
      return;
    }
    p.acked.store(progress.acked);
    p.trimmed.store(progress.trimmed);
    {
      std::lock_guard lock(p.mu);
      p.destage = progress;
    }
    last_progress = now;
    wake();
  }
}

}  // namespace tierwise::replication
