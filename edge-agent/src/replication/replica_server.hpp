// The peer side of WB+n: holds other agents' journal records until their owner
// has destaged them.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tierwise::replication {

/*
 * Lifecycle of a ReplicaServer
 *
 * 1. start(): listens on "host:port" (port 0: any free port, see port()).
 * 2. Each owner connection is served by its own thread: HELLO names the volume;
 *    every RECORD is checked (frame CRC, then the journal record's own header
 *    and data CRCs), stored in memory and acknowledged; TRIM(W) drops the
 *    volume's records with seq <= W. A bad frame closes that connection.
 *    Records survive the connection (an owner that restarts finds them) and
 *    live until trimmed or the server stops. With an acknowledgement delay, each
 *    RECORD's ACK is sent that long after the record was stored: a stand-in for
 *    a slow replica link in tests (a 64 KiB write's 16 records wait 16 delays).
 * 3. Destroy: stops listening, closes connections, joins threads.
 */
class ReplicaServer {
 public:
  // Returns 0 or -errno (-EADDRINUSE, -EINVAL for a malformed address).
  static int start(const std::string& address, std::unique_ptr<ReplicaServer>* out,
                   std::chrono::microseconds ack_delay = std::chrono::microseconds(0));
  ~ReplicaServer();
  ReplicaServer(const ReplicaServer&) = delete;
  ReplicaServer& operator=(const ReplicaServer&) = delete;

  int port() const { return port_; }
  // Records held for `volume_id` now, and the bytes they occupy.
  size_t held_records(uint64_t volume_id) const;
  uint64_t held_bytes() const;

 private:
  ReplicaServer(int listen_fd, int port, std::chrono::microseconds ack_delay)
      : listen_fd_(listen_fd), port_(port), ack_delay_(ack_delay) {}
  void accept_loop();
  void serve(int fd);

  int listen_fd_;
  int port_;
  const std::chrono::microseconds ack_delay_;
  std::atomic<bool> stopping_{false};
  std::thread acceptor_;
  mutable std::mutex mu_;
  std::vector<int> connections_;
  std::vector<std::thread> workers_;
  // volume id -> seq -> record
  std::map<uint64_t, std::map<uint64_t, std::vector<std::byte>>> records_;
  uint64_t held_bytes_ = 0;
};

}  // namespace tierwise::replication
