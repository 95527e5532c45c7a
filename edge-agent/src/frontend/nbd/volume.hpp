// What the NBD server serves: one export per volume, bound to its cache engine.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cache/cache_engine.hpp"
#include "frontend/nbd/handshake.hpp"
#include "frontend/nbd/protocol.hpp"
#include "frontend/nbd/range_lock.hpp"

namespace tierwise::frontend::nbd {

// Told about every front-end I/O a volume's cache engine completed (the live
// data plane's telemetry hook). Runs on the reactor thread; must not block.
class IoObserver {
 public:
  virtual ~IoObserver() = default;
  // `volume`: index in the server's volume list; `offset`: byte offset of the
  // I/O; `outcome`: the engine's account (status, length, latencies, sources).
  virtual void on_io(size_t volume, uint64_t offset, const cache::IoOutcome& outcome) = 0;
  // Once per reactor turn, after that turn's replies were handed to the
  // sockets: work an observer deferred from on_io() can be done here, off the
  // path of the replies. Default: nothing.
  virtual void on_turn_end() {}
};

// One volume as the server sees it. The engine is not owned and must outlive
// the server; its devices are driven by the server's UringQueue.
struct Volume {
  ExportInfo info;                       // name, size, transmission flags
  cache::CacheEngine* engine = nullptr;
  RangeLock lock;                        // overlapping I/Os of every connection
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
