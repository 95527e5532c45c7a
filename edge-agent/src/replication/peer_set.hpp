// The owner side of WB+n: one TCP connection per peer agent, records sent in
// order, acknowledgements collected, failures detected (cache::writeback::ReplicaSink).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cache/writeback/replica_sink.hpp"
#include "replication/protocol.hpp"

namespace tierwise::replication {

/*
 * Lifecycle of a PeerSet
 *
 * 1. connect(): one connection per address ("host:port"). Fails (-errno,
 *    `error` set) when any peer is unreachable: a volume does not start
 *    write-back with fewer than n peers.
 * 2. The engine calls start(epoch) after its recovery, which greets every peer
 *    with HELLO(volume_id, `hello` with that epoch), then send()/trim() from
 *    its thread; per peer, a sender thread
 *    writes the frames in order and a receiver thread reads ACKs.
 * 3. A peer fails when its connection breaks, a frame is bad, or records stay
 *    unacknowledged longer than `ack_timeout`. The set is then failed for good
 *    (failed() true, wake_fd() readable); further sends are dropped.
 *    After the owner's tier failed, destage() asks the first peer to write
 *    its records to the datastore; destaged() reports the answer.
 * 4. Destroy from the engine's thread: connections are shut down, threads joined.
 */
class PeerSet final : public cache::writeback::ReplicaSink {
 public:
  // `hello`: where the volume lives (its epoch is set by start()).
  static int connect(const std::vector<std::string>& addresses, uint64_t volume_id,
                     const Hello& hello, std::chrono::milliseconds ack_timeout,
                     std::unique_ptr<PeerSet>* out, std::string* error);
  ~PeerSet() override;
  PeerSet(const PeerSet&) = delete;
  PeerSet& operator=(const PeerSet&) = delete;

  size_t peer_count() const override { return peers_.size(); }
  void start(uint64_t epoch) override;
  void send(uint64_t seq, std::span<const std::byte> record) override;
  uint64_t acked_through() const override;
  uint64_t trimmed_through() const override;
  void trim(uint64_t watermark) override;
  bool failed(std::string* reason) const override;
  // Asks the first peer (every peer holds every acknowledged record).
  void destage(uint64_t watermark) override;
  int destaged(uint64_t* through, std::string* error) const override;
  // Readable after an acknowledgement or a failure; read 8 bytes to clear it.
  int wake_fd() const override { return wake_fd_; }

 private:
  struct Peer {
    std::string address;
    int fd = -1;
    std::mutex mu;
    std::condition_variable cv;
    std::deque<std::vector<std::byte>> queue;  // encoded frames
    bool closing = false;
    std::atomic<uint64_t> sent{0};   // highest RECORD seq handed to the socket
    std::atomic<uint64_t> acked{0};
    std::atomic<uint64_t> trim_sent{0};  // highest TRIM watermark handed to the socket
    std::atomic<uint64_t> trimmed{0};    // highest TRIMMED received
    PeerProgress destage;  // only its DESTAGE fields are used; guarded by mu
    std::thread sender, receiver;
  };

  PeerSet(std::chrono::milliseconds ack_timeout, int wake_fd, uint64_t volume_id, Hello hello)
      : ack_timeout_(ack_timeout), wake_fd_(wake_fd), volume_id_(volume_id), hello_(std::move(hello)) {}
  void enqueue(Peer& p, std::vector<std::byte> frame);
  void run_sender(Peer& p);
  void run_receiver(Peer& p);
  void fail(const Peer& p, const std::string& why);
  void wake() const;

  std::chrono::milliseconds ack_timeout_;
  int wake_fd_;
  uint64_t volume_id_;
  Hello hello_;
  std::vector<std::unique_ptr<Peer>> peers_;
  std::atomic<bool> failed_{false};
  mutable std::mutex failure_mu_;
  std::string failure_;
};

}  // namespace tierwise::replication
