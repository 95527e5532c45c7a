// What the cache engine needs from its peer replicas (WB+n): send each journal
// record to n peers, learn how far all of them acknowledged, tell them what
// was destaged. Implemented over TCP by replication::PeerSet.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace tierwise::cache::writeback {

/*
 * Contract (all calls from the engine's thread; implementations may do their
 * network I/O on their own threads):
 *  - start(): once, before the first send(), when recovery is done: the peers
 *    learn the ownership epoch the records belong to (0 without a lease).
 *  - send(): queues one journal record (journal_format.hpp encoding, header +
 *    data) for every peer. Sequence numbers arrive in increasing order.
 *  - acked_through(): the highest sequence number every peer has acknowledged
 *    (peers acknowledge in order, so every lower one is acknowledged too).
 *  - trim(): every record with seq <= watermark is destaged: peers may drop them.
 *  - trimmed_through(): the highest watermark every peer confirmed it trimmed.
 *    Until then a peer may still hold (and on a takeover apply) those records,
 *    so the engine journals every write to their blocks.
 *  - failed(): true, with a reason, once any peer missed an acknowledgement
 *    deadline or its connection broke. A failed set stays failed.
 *  - destage(): the owner's tier failed (docs/write-back.md "Tier failure"):
 *    one peer writes every record it holds with seq > watermark to the shared
 *    datastore, in sequence order, and flushes it. Called at most once.
 *  - destaged(): -EINPROGRESS until that peer answered; then 0 and the highest
 *    sequence number it wrote (watermark when it held none), or -EIO with the
 *    reason when it failed or the set failed first.
 *  - wake_fd(): a file descriptor that becomes readable when acked_through(),
 *    failed() or destaged() changed, for the owner's poll(2) loop (-1: none).
 */
class ReplicaSink {
 public:
  virtual ~ReplicaSink() = default;
  virtual size_t peer_count() const = 0;
  virtual void start(uint64_t epoch) = 0;
  virtual void send(uint64_t seq, std::span<const std::byte> record) = 0;
  virtual uint64_t acked_through() const = 0;
  virtual void trim(uint64_t watermark) = 0;
  virtual uint64_t trimmed_through() const = 0;
  virtual bool failed(std::string* reason) const = 0;
  virtual void destage(uint64_t watermark) = 0;
  virtual int destaged(uint64_t* through, std::string* error) const = 0;
  virtual int wake_fd() const = 0;
};

}  // namespace tierwise::cache::writeback
