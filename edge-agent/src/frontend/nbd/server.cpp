#include "frontend/nbd/server.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace tierwise::frontend::nbd {
namespace {

constexpr int kMaxEvents = 64;
constexpr int kBacklog = 128;

int64_t monotonic_ms() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1000 + ts.tv_nsec / 1'000'000;
}

}  // namespace

struct NbdServer::Watch {
  enum class Kind { kListener, kUring, kUser, kConnection } kind;
  std::function<void()> on_readable;  // kUser
  std::unique_ptr<Connection> conn;   // kConnection
  uint32_t interest = 0;              // kConnection: epoll events registered
};

NbdServer::NbdServer(blockdev::UringQueue& queue, std::vector<Volume> volumes, IoObserver* observer)
    : queue_(queue), volumes_(std::move(volumes)) {
  for (const Volume& v : volumes_) infos_.push_back(v.info);
  ctx_.volumes = &volumes_;
  ctx_.infos = &infos_;
  ctx_.observer = observer;
  ctx_.ready = &ready_;
  ctx_.dirty = &dirty_;
}

NbdServer::~NbdServer() {
  connections_.clear();
  if (listen_fd_ >= 0) ::close(listen_fd_);
  if (!unix_path_.empty()) ::unlink(unix_path_.c_str());
  if (uring_event_fd_ >= 0) ::close(uring_event_fd_);
  if (epoll_fd_ >= 0) ::close(epoll_fd_);
}

int NbdServer::create(const ListenAddress& address, blockdev::UringQueue& queue,
                      std::vector<Volume> volumes, IoObserver* observer,
                      std::unique_ptr<NbdServer>* out) {
  if (volumes.empty()) return -EINVAL;
  std::unique_ptr<NbdServer> s(new NbdServer(queue, std::move(volumes), observer));
  s->zeros_ = blockdev::allocate_aligned(Connection::kZeroBytes, cache::CacheEngine::kBlockBytes);
  if (!s->zeros_) return -ENOMEM;
  std::memset(s->zeros_.get(), 0, Connection::kZeroBytes);
  s->ctx_.zeros = s->zeros_.get();
  s->epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  if (s->epoll_fd_ < 0) return -errno;
  s->uring_event_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (s->uring_event_fd_ < 0) return -errno;
  if (const int rc = queue.register_eventfd(s->uring_event_fd_); rc < 0) return rc;
  if (const int rc = s->listen_on(address); rc < 0) return rc;
  for (auto [fd, kind] : {std::pair{s->listen_fd_, Watch::Kind::kListener},
                          std::pair{s->uring_event_fd_, Watch::Kind::kUring}}) {
    auto w = std::make_unique<Watch>();
    w->kind = kind;
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.ptr = w.get();
    if (epoll_ctl(s->epoll_fd_, EPOLL_CTL_ADD, fd, &ev) != 0) return -errno;
    s->watches_.push_back(std::move(w));
  }
  *out = std::move(s);
  return 0;
}

int NbdServer::listen_on(const ListenAddress& a) {
  if (!a.unix_path.empty()) {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (a.unix_path.size() >= sizeof addr.sun_path) return -ENAMETOOLONG;
    std::memcpy(addr.sun_path, a.unix_path.c_str(), a.unix_path.size() + 1);
    struct stat st {};
    if (lstat(a.unix_path.c_str(), &st) == 0) {
      if (!S_ISSOCK(st.st_mode)) return -EEXIST;  // never delete what is not a socket
      ::unlink(a.unix_path.c_str());               // a stale socket of an earlier run
    }
    listen_fd_ = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (listen_fd_ < 0) return -errno;
    if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) return -errno;
    unix_path_ = a.unix_path;
  } else {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(a.tcp_port);
    if (inet_pton(AF_INET, a.tcp_host.c_str(), &addr.sin_addr) != 1) return -EINVAL;
    listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (listen_fd_ < 0) return -errno;
    const int one = 1;
    setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) return -errno;
    socklen_t len = sizeof addr;
    if (getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
      bound_port_ = ntohs(addr.sin_port);
    }
  }
  if (::listen(listen_fd_, kBacklog) != 0) return -errno;
  return 0;
}

int NbdServer::watch(int fd, std::function<void()> on_readable) {
  auto w = std::make_unique<Watch>();
  w->kind = Watch::Kind::kUser;
  w->on_readable = std::move(on_readable);
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.ptr = w.get();
  if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev) != 0) return -errno;
  watches_.push_back(std::move(w));
  return 0;
}

void NbdServer::accept_all() {
  for (;;) {
    const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) {
        std::fprintf(stderr, "tierwise-agent: nbd: accept: %s\n", std::strerror(errno));
      }
      return;
    }
    std::string peer = "connection " + std::to_string(++accepted_);
    pid_t peer_pid = 0;
    if (unix_path_.empty()) {
      const int one = 1;  // replies are batched already: send them at once
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    } else {
      // The connecting process (unix(7) SO_PEERCRED), the volume's consumer.
      ucred cred{};
      socklen_t len = sizeof cred;
      if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0) {
        peer_pid = cred.pid;
        if (peer_pid > 0) peer += " (pid " + std::to_string(peer_pid) + ")";
      } else {
        std::fprintf(stderr, "tierwise-agent: nbd: %s on %s: SO_PEERCRED: %s\n", peer.c_str(), unix_path_.c_str(),
                     std::strerror(errno));
      }
    }
    auto w = std::make_unique<Watch>();
    w->kind = Watch::Kind::kConnection;
    w->conn = std::make_unique<Connection>(ctx_, fd, std::move(peer), peer_pid);
    w->interest = EPOLLIN;
    epoll_event ev{};
    ev.events = w->interest;
    ev.data.ptr = w.get();
    if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev) != 0) {
      std::fprintf(stderr, "tierwise-agent: nbd: epoll_ctl: %s\n", std::strerror(errno));
      continue;  // the Watch (and the socket) go away here
    }
    connections_.push_back(std::move(w));
  }
}

void NbdServer::on_connection_event(Watch* w, uint32_t events) {
  Connection* c = w->conn.get();
  if ((events & EPOLLOUT) != 0 && c->flush_output()) update_interest(w);
  if ((events & (EPOLLIN | EPOLLHUP | EPOLLERR)) != 0 && c->reading()) c->on_readable();
}

void NbdServer::update_interest(Watch* w) {
  const Connection* c = w->conn.get();
  uint32_t want = 0;
  if (c->reading() && !c->backlogged()) want |= EPOLLIN;
  if (c->has_output() && !c->finished()) want |= EPOLLOUT;
  if (want == w->interest) return;
  epoll_event ev{};
  ev.events = want;
  ev.data.ptr = w;
  epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, c->fd(), &ev);
  w->interest = want;
}

void NbdServer::tick_engines() {
  for (Volume& v : volumes_) v.engine->tick();
}

bool NbdServer::engines_busy() const {
  for (const Volume& v : volumes_) {
    if (v.engine->busy()) return true;
  }
  return false;
}

int NbdServer::settle() {
  for (;;) {
    tick_engines();  // write-back: peer acks, group commit, destager, watermark
    while (!ready_.empty()) {
      Command* cmd = ready_.back();
      ready_.pop_back();
      cmd->conn->start(cmd);
    }
    if (queue_.in_flight() == 0) return 0;
    const int rc = queue_.poll(false);  // submits what was prepared, reaps what completed
    if (rc < 0) return rc;
    if (rc == 0 && ready_.empty()) return 0;
  }
}

void NbdServer::send_replies() {
  // flush_output() may not add to dirty_, so walking it while it is only read is safe.
  for (Connection* c : dirty_) c->flush_output();
  dirty_.clear();
}

void NbdServer::reap_finished() {
  for (size_t i = 0; i < connections_.size();) {
    Watch* w = connections_[i].get();
    if (w->conn->finished()) {
      epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, w->conn->fd(), nullptr);
      connections_[i] = std::move(connections_.back());
      connections_.pop_back();
      continue;
    }
    update_interest(w);
    ++i;
  }
}

int NbdServer::run() {
  epoll_event events[kMaxEvents];
  for (;;) {
    if (stopping_ && connections_.empty() && queue_.in_flight() == 0 && !engines_busy()) return 0;
    // Write-back engines want tick() at least every millisecond while busy.
    const int timeout = engines_busy() ? 1 : stopping_ ? 100 : -1;
    const int n = epoll_wait(epoll_fd_, events, kMaxEvents, timeout);
    if (n < 0 && errno != EINTR) return -errno;
    for (int i = 0; i < n; ++i) {
      auto* w = static_cast<Watch*>(events[i].data.ptr);
      switch (w->kind) {
        case Watch::Kind::kListener:
          if (!stopping_) accept_all();
          break;
        case Watch::Kind::kUring: {
          uint64_t count = 0;
          [[maybe_unused]] ssize_t r = ::read(uring_event_fd_, &count, sizeof count);
          break;  // settle() below reaps the completions
        }
        case Watch::Kind::kUser:
          w->on_readable();
          break;
        case Watch::Kind::kConnection:
          on_connection_event(w, events[i].events);
          break;
      }
    }
    if (const int rc = settle(); rc < 0) return rc;
    send_replies();
    if (ctx_.observer != nullptr) ctx_.observer->on_turn_end();
    if (stopping_ && monotonic_ms() > stop_deadline_ms_) {
      for (auto& w : connections_) {
        if (w->conn->has_output()) w->conn->abandon();
      }
    }
    reap_finished();
  }
}

void NbdServer::stop(int drain_timeout_ms) {
  if (stopping_) return;
  stopping_ = true;
  ctx_.stopping = true;
  stop_deadline_ms_ = monotonic_ms() + drain_timeout_ms;
  if (listen_fd_ >= 0) {
    epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, listen_fd_, nullptr);
    ::close(listen_fd_);
    listen_fd_ = -1;
  }
  for (auto& w : connections_) w->conn->stop_reading();
}

}  // namespace tierwise::frontend::nbd
