// The NBD server: a reactor (epoll) thread serving every volume's export over
// a Unix socket or TCP, with the datastore io_uring's completions in the same
// loop.
#pragma once

#include <sys/epoll.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "blockdev/aligned_buffer.hpp"
#include "blockdev/uring_queue.hpp"
#include "frontend/nbd/connection.hpp"
#include "frontend/nbd/volume.hpp"

namespace tierwise::frontend::nbd {

// Where the server listens: a Unix socket path, or else a TCP address.
struct ListenAddress {
  std::string unix_path;               // non-empty: AF_UNIX stream socket at this path
  std::string tcp_host = "127.0.0.1";  // IPv4 literal, used when unix_path is empty
  uint16_t tcp_port = 10809;           // 0: any free port (see NbdServer::tcp_port())
};

/*
 * Lifecycle of an NbdServer (the analogue of an SPDK reactor with its I/O
 * channel: one thread owns the epoll set, the UringQueue driving every volume's
 * datastore, the cache engines and all connections; nothing is locked)
 *
 * 1. create(): binds and listens (a stale socket file at unix_path is replaced;
 *    any other file there is an error), registers an eventfd with the
 *    UringQueue so datastore completions wake the loop. Returns 0 or -errno.
 *    The observer (null: none) must outlive the server. On a Unix socket each
 *    accepted connection's peer pid is taken (SO_PEERCRED) for
 *    IoObserver::on_attach() / on_detach().
 * 2. watch(): adds other descriptors to the loop (signalfd, timerfd), whose
 *    callbacks run on the reactor thread between I/Os.
 * 3. run(): the loop, on the calling thread. Each turn: wait in epoll (at most
 *    1 ms while a write-back engine is busy), tick every engine, read
 *    every readable connection (requests are parsed in batches), submit the
 *    io_uring requests they produced in one system call, reap completions,
 *    start commands whose range lock was granted, then send each connection's
 *    replies with one send(). Returns after stop() once every connection has
 *    finished; 0 or -errno from epoll/io_uring.
 * 4. stop() (from a watch() callback): closes the listener and stops reading
 *    requests; in-flight requests complete and their replies are sent (the
 *    spec's orderly server shutdown), then connections close. After
 *    `drain_timeout_ms` connections that still hold unsent replies are closed.
 * 5. Destroy after run() returned (the socket file is removed).
 *
 * Every volume's engine must be driven by `queue` (its devices submit there).
 */
class NbdServer {
 public:
  static int create(const ListenAddress& address, blockdev::UringQueue& queue,
                    std::vector<Volume> volumes, IoObserver* observer,
                    std::unique_ptr<NbdServer>* out);
  ~NbdServer();
  NbdServer(const NbdServer&) = delete;
  NbdServer& operator=(const NbdServer&) = delete;

  // Runs `on_readable` on the reactor thread whenever `fd` is readable.
  // Returns 0 or -errno from epoll_ctl.
  int watch(int fd, std::function<void()> on_readable);
  int run();
  void stop(int drain_timeout_ms = 10'000);

  // The TCP port bound (useful with tcp_port 0); 0 for a Unix socket.
  uint16_t tcp_port() const { return bound_port_; }
  // Connections open now, and accepted since create().
  size_t open_connections() const { return connections_.size(); }
  uint64_t accepted_connections() const { return accepted_; }
  const std::vector<Volume>& volumes() const { return volumes_; }

 private:
  struct Watch;
  NbdServer(blockdev::UringQueue& queue, std::vector<Volume> volumes, IoObserver* observer);
  int listen_on(const ListenAddress& address);
  void accept_all();
  void on_connection_event(Watch* w, uint32_t events);
  // Runs granted commands, engine ticks and io_uring completions until quiet.
  int settle();
  // CacheEngine::tick() of every volume (write-back background work).
  void tick_engines();
  bool engines_busy() const;
  void send_replies();
  void update_interest(Watch* w);
  void reap_finished();

  blockdev::UringQueue& queue_;
  std::vector<Volume> volumes_;
  std::vector<ExportInfo> infos_;
  ServerContext ctx_;
  std::vector<Command*> ready_;
  std::vector<Connection*> dirty_;
  blockdev::AlignedBytes zeros_;
  int epoll_fd_ = -1;
  int listen_fd_ = -1;
  int uring_event_fd_ = -1;
  std::string unix_path_;
  uint16_t bound_port_ = 0;
  uint64_t accepted_ = 0;
  bool stopping_ = false;
  int64_t stop_deadline_ms_ = 0;  // CLOCK_MONOTONIC milliseconds
  std::vector<std::unique_ptr<Watch>> connections_;  // one per client connection
  std::vector<std::unique_ptr<Watch>> watches_;      // listener, io_uring eventfd, watch()
};

}  // namespace tierwise::frontend::nbd
