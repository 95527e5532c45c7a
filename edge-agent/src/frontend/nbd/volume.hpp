// What the NBD server serves: one export per volume, bound to its cache engine.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>

#include "cache/cache_engine.hpp"
#include "frontend/nbd/handshake.hpp"
#include "frontend/nbd/protocol.hpp"
#include "frontend/nbd/range_lock.hpp"

namespace tierwise::frontend::nbd {

// A front-end command as it was issued: READ, or WRITE / WRITE_ZEROES (a
// write), once each, when the request was parsed from its connection's socket.
struct IssuedIo {
  cache::Direction direction;
  uint64_t offset;    // bytes
  uint64_t length;    // bytes, > 0
  // Steady clock (CLOCK_MONOTONIC) nanoseconds when the socket read that
  // completed the request returned: requests read together share it.
  int64_t issued_ns;
  // The volume's commands (every connection's) issued and not completed, this
  // one included, and those of them of `direction`. A command completes when
  // its reply was handed to the socket (or dropped with its connection).
  uint32_t in_flight;
  uint32_t in_flight_direction;
};

// Told about every front-end I/O a volume's cache engine completed, every
// command issued, and the client processes attached to each export (the live
// data plane's telemetry hook). Runs on the reactor thread; must not block.
// It must outlive the server (a connection still open when the server is
// destroyed reports its detach then).
class IoObserver {
 public:
  virtual ~IoObserver() = default;
  // `volume`: index in the server's volume list; `offset`: byte offset of the
  // I/O; `outcome`: the engine's account (status, length, latencies, sources).
  virtual void on_io(size_t volume, uint64_t offset, const cache::IoOutcome& outcome) = 0;
  // A command of `volume` issued, in issue order (parse order, across the
  // volume's connections). Default: nothing.
  virtual void on_issue(size_t /*volume*/, const IssuedIo& /*io*/) {}
  // Once per reactor turn, after that turn's replies were handed to the
  // sockets: work an observer deferred from on_io() can be done here, off the
  // path of the replies. Default: nothing.
  virtual void on_turn_end() {}
  // A connection whose peer process is known (a Unix socket's peer,
  // SO_PEERCRED: the process that connected) attached to `volume`'s export:
  // its handshake ended in transmission. on_detach() follows, once, when that
  // connection is destroyed. TCP connections, and peers outside the server's
  // pid namespace (pid 0), are not reported. Several connections of one
  // process report one attach each. Default: nothing.
  virtual void on_attach(size_t /*volume*/, pid_t /*pid*/) {}
  virtual void on_detach(size_t /*volume*/, pid_t /*pid*/) {}
};

// One volume as the server sees it. The engine is not owned and must outlive
// the server; its devices are driven by the server's UringQueue.
struct Volume {
  ExportInfo info;                       // name, size, transmission flags
  cache::CacheEngine* engine = nullptr;
  RangeLock lock;                        // overlapping I/Os of every connection
  // With an observer: READ / write commands issued and not completed, by
  // Direction (IssuedIo::in_flight).
  uint32_t in_flight[2] = {};
};

// Transmission flags of a volume served through a write-through cache engine:
// FLUSH, FUA, TRIM and WRITE_ZEROES are sent, and MULTI_CONN is advertised
// because a write is on the datastore (shared by every connection) before it
// is acknowledged, so a FLUSH on any connection covers writes completed on all.
inline constexpr uint16_t kVolumeTransmissionFlags = kFlagHasFlags | kFlagSendFlush | kFlagSendFua |
                                                     kFlagSendTrim | kFlagSendWriteZeroes |
                                                     kFlagCanMultiConn;

// Transmission flags of a write-back volume: the same without TRIM. A write is
// acknowledged once its journal record is flushed on the tier (and held by the
// peers), i.e. durable, so a FLUSH on any connection still covers writes
// completed on all (it flushes the datastore for those that went straight
// there) and MULTI_CONN stays. TRIM is not sent: the engine cannot drop dirty
// blocks before they are destaged, and answering success would be a lie.
inline constexpr uint16_t kWriteBackTransmissionFlags =
    static_cast<uint16_t>(kVolumeTransmissionFlags & ~kFlagSendTrim);

}  // namespace tierwise::frontend::nbd
