// The peer side of WB+n: holds other agents' journal records until their owner
// has destaged them.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <functional>
#include <thread>
#include <vector>

#include "replication/protocol.hpp"
#include "replication/replica_store.hpp"

namespace tierwise::replication {

/*
 * Lifecycle of a ReplicaServer
 *
 * 1. start(): listens on "host:port" (port 0: any free port, see port()).
 * 2. Each owner connection is served by its own thread: HELLO names the volume
 *    and its epoch; every RECORD is checked (frame CRC, then the journal
 *    record's own header and data CRCs), stored in memory (and with a store,
 *    appended to the volume's file) and acknowledged; the ACKs of the records
 *    read together go out after one flush of the store, with a TRIMMED for the
 *    trims applied meanwhile;
 *    TRIM(W) drops the volume's records with seq <= W; DESTAGE(W) writes
 *    those above W to the datastore for an owner whose tier failed and
 *    answers DESTAGED (they stay until trimmed). A bad frame closes that
 *    connection. A HELLO of an epoch below the volume's newest is refused (a
 *    fenced owner); one above it drops the records of the older epoch (the new
 *    owner recovered them from its journal, or a takeover destaged them).
 *    Records survive the connection and live until trimmed, dropped or taken
 *    over. With an acknowledgement delay, each
 *    RECORD's ACK is sent that long after the record was stored: a stand-in for
 *    a slow replica link in tests (a 64 KiB write's 16 records wait 16 delays).
 * 3. Owner loss (docs/write-back.md "Owner loss"): a watcher thread looks at
 *    every greeted volume with an epoch > 0 and no owner connection every
 *    kWatchInterval (with no records too: the takeover then only releases the
 *    lease, so that a new owner may start). It reads the lease: a later epoch drops the records; a
 *    renewal restarts the clock; a lease left unrenewed for the owner's
 *    lease_ms is taken over (takeover.hpp): the records are destaged to the
 *    datastore and dropped, and `on_event` says so.
 * 4. Destroy: stops listening and watching, closes connections, joins threads.
 */
class ReplicaServer {
 public:
  // Returns 0 or -errno (-EADDRINUSE, -EINVAL for a malformed address).
  // `on_event`: one line per takeover or dropped epoch (may be empty; called
  // from the watcher thread). `holder`: this peer's name in the lease.
  // `store_dir`: keep the replicas in files there, flushed before each ACK,
  // and load what it holds (replica_store.hpp); empty: in memory only.
  static int start(const std::string& address, std::unique_ptr<ReplicaServer>* out,
                   std::chrono::microseconds ack_delay = std::chrono::microseconds(0),
                   std::function<void(const std::string&)> on_event = {}, const std::string& store_dir = {});
  ~ReplicaServer();
  ReplicaServer(const ReplicaServer&) = delete;
  ReplicaServer& operator=(const ReplicaServer&) = delete;

  int port() const { return port_; }
  // Records held for `volume_id` now, and the bytes they occupy.
  size_t held_records(uint64_t volume_id) const;
  uint64_t held_bytes() const;

 private:
  // What the peer holds of one volume.
  struct Volume {
    Hello hello;  // of the newest epoch greeted
    std::map<uint64_t, std::vector<std::byte>> records;  // seq -> journal record
    int connections = 0;  // owner connections of hello.epoch now open
    // Owner gone (no connection): when the clock started and the lease renewals seen then.
    std::chrono::steady_clock::time_point quiet_since;
    uint64_t renewals_seen = 0;
    bool watching = false;
    bool settled = true;  // taken over or dropped: nothing left to watch until the next HELLO
  };

  ReplicaServer(int listen_fd, int port, std::chrono::microseconds ack_delay,
                std::function<void(const std::string&)> on_event)
      : listen_fd_(listen_fd), port_(port), ack_delay_(ack_delay), on_event_(std::move(on_event)) {}
  void accept_loop();
  void serve(int fd);
  // Applies a HELLO's epoch to the volume; false (with `error`) for a fenced owner.
  bool greet(const PeerSession& session, std::string* error);
  // DESTAGE(watermark) from the owner of `session`: writes the volume's records
  // above it to the datastore (takeover.hpp destage_records) and answers
  // DESTAGED; false when the answer cannot be sent or a newer owner superseded it.
  bool destage_for_owner(int fd, const PeerSession& session, uint64_t watermark);
  void watch_loop();
  void watch(uint64_t volume_id);
  void drop(uint64_t volume_id, Volume& v);
  // Sends the ACKs of `seqs`, and TRIMMED(trimmed) when it moved past
  // `confirmed`, once the store (if any) is flushed; false when either fails
  // (the connection then closes: the owner fails this peer).
  bool acknowledge(int fd, std::vector<uint64_t>* seqs, uint64_t trimmed, uint64_t* confirmed);

  int listen_fd_;
  int port_;
  const std::chrono::microseconds ack_delay_;
  const std::function<void(const std::string&)> on_event_;
  std::atomic<bool> stopping_{false};
  std::thread acceptor_;
  std::thread watcher_;
  mutable std::mutex mu_;
  std::vector<int> connections_;
  std::vector<std::thread> workers_;
  std::map<uint64_t, Volume> volumes_;  // by volume id
  std::optional<ReplicaStore> store_;   // with --store
  uint64_t held_bytes_ = 0;
};

}  // namespace tierwise::replication
