// The data plane of `serve`: each volume's datastore, RAM tier and cache
// engine, all driven by one UringQueue.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <memory>
#include <string>
#include <vector>

#include "blockdev/ram_device.hpp"
#include "blockdev/uring_file_device.hpp"
#include "blockdev/uring_queue.hpp"
#include "cache/cache_engine.hpp"
#include "serve/serve_config.hpp"
#include "replication/lease.hpp"
#include "replication/peer_set.hpp"

namespace tierwise::serve {

struct ServedVolume {
  VolumeConfig config;
  uint64_t size_bytes = 0;  // the export's size
  bool block_device = false;
  std::unique_ptr<blockdev::UringFileDevice> datastore;
  std::unique_ptr<blockdev::BlockDevice> tier;  // RamDevice or UringFileDevice
  std::unique_ptr<replication::Lease> lease;     // write-back with "peers": the ownership lease
  std::unique_ptr<replication::PeerSet> peers;  // write-back with "peers" (WB+n)
  std::unique_ptr<cache::CacheEngine> engine;    // destroyed before peers, lease and devices
  std::string recovery;  // write-back: what journal recovery found, one line
  // Bytes the tier device has for cache slots (beyond the journal and the
  // staging room): the RAM tier's tier_bytes; a file's or device's size at
  // open, when larger. A policy's tier size beyond it cannot apply.
  uint64_t tier_room_bytes = 0;
};

// Opens the datastore (a missing file is created sparse; a file smaller than
// "size" is extended, sparse), the tier (RAM, or a file/device through the
// same io_uring, O_DIRECT) and the engine of `config`.
// In write-back the peers are connected (every one must answer) and the
// tier's journal is recovered into the datastore before this returns, so the
// export never serves I/O ahead of recovery; `on_event` gets the engine's
// mode changes (a peer failing) on the reactor thread.
// Throws std::runtime_error naming the volume and the cause (missing size,
// unreadable path, io_uring, a size that is not a multiple of 512, an
// unreachable peer, a damaged journal, a lease another owner holds).
std::unique_ptr<ServedVolume> open_volume(const VolumeConfig& config, blockdev::UringQueue& queue,
                                          std::function<void(std::string_view)> on_event);

// Flushes every volume's datastore (fdatasync through the queue) and waits.
// Returns the first error as -errno, or 0.
int flush_volumes(const std::vector<std::unique_ptr<ServedVolume>>& volumes,
                  blockdev::UringQueue& queue);

}  // namespace tierwise::serve
