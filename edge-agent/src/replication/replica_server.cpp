#include "replication/replica_server.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <iostream>

#include "replication/frame.hpp"
#include "replication/protocol.hpp"
#include "replication/tcp.hpp"

namespace tierwise::replication {
namespace {

constexpr int kAcceptPollMs = 100;

}  // namespace

int ReplicaServer::start(const std::string& address, std::unique_ptr<ReplicaServer>* out,
                         std::chrono::microseconds ack_delay) {
  const int fd = listen_tcp(address);
  if (fd < 0) return fd;
  std::unique_ptr<ReplicaServer> server(new ReplicaServer(fd, bound_port(fd), ack_delay));
  server->acceptor_ = std::thread([s = server.get()] { s->accept_loop(); });
  *out = std::move(server);
  return 0;
}

ReplicaServer::~ReplicaServer() {
  stopping_.store(true);
  acceptor_.join();
  {
    std::lock_guard lock(mu_);
    for (int fd : connections_) ::shutdown(fd, SHUT_RDWR);
  }
  for (std::thread& t : workers_) t.join();
  ::close(listen_fd_);
}

size_t ReplicaServer::held_records(uint64_t volume_id) const {
  std::lock_guard lock(mu_);
  const auto it = records_.find(volume_id);
  return it == records_.end() ? 0 : it->second.size();
}

uint64_t ReplicaServer::held_bytes() const {
  std::lock_guard lock(mu_);
  return held_bytes_;
}

void ReplicaServer::accept_loop() {
  while (!stopping_.load()) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, kAcceptPollMs) <= 0) continue;
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    std::lock_guard lock(mu_);
    connections_.push_back(fd);
    workers_.emplace_back([this, fd] { serve(fd); });
  }
}

void ReplicaServer::serve(int fd) {
  Frame frame;
  std::string error;
  PeerSession session;
  std::vector<std::byte> ack;
  for (;;) {
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
    if (step == PeerStep::kGreet) continue;
    if (step == PeerStep::kTrim) {
      std::lock_guard lock(mu_);
      auto& held = records_[session.volume];
      for (auto it = held.begin(); it != held.end() && it->first <= frame.value;) {
        held_bytes_ -= it->second.size();
        it = held.erase(it);
      }
      continue;
    }
    {
      std::lock_guard lock(mu_);
      auto& slot = records_[session.volume][frame.value];
      held_bytes_ += frame.payload.size() - slot.size();
      slot = std::move(frame.payload);
    }
    if (ack_delay_.count() > 0) std::this_thread::sleep_for(ack_delay_);
    ack.clear();
    encode_frame(FrameType::kAck, frame.value, {}, &ack);
    if (write_all(fd, ack) != 0) break;
  }
  std::lock_guard lock(mu_);
  ::close(fd);
  std::erase(connections_, fd);
}

}  // namespace tierwise::replication
