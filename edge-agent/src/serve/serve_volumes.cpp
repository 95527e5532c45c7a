#include "serve/serve_volumes.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include <cerrno>
#include <chrono>
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "cache/eviction/eviction_policy.hpp"
#include "cache/writeback/journal_format.hpp"
#include "sampling/sodium_init.hpp"
#include "serve/host_name.hpp"

namespace tierwise::serve {
namespace {

// Slots beyond the tier's capacity for blocks whose eviction waits for an
// in-flight I/O (cache/tier_index.hpp): 32 MiB, the most one request can
// touch (kMaxPayloadBytes), so a large read never loses its population.
// RAM takes them only when used.
constexpr uint32_t kStagingSlots = (32u << 20) / cache::CacheEngine::kBlockBytes;

// A peer that leaves records unacknowledged this long is failed (the volume
// falls back to write-through).
constexpr std::chrono::milliseconds kPeerAckTimeout{500};

[[noreturn]] void fail(const VolumeConfig& c, const std::string& what) {
  throw std::runtime_error("volume " + c.name + ": " + what);
}

std::string errno_text(int negative_errno) { return std::strerror(-negative_errno); }

// Size of the block device at `path`, bytes (BLKGETSIZE64).
uint64_t block_device_size(const VolumeConfig& c) {
  const int fd = ::open(c.datastore.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(c, "cannot open block device " + c.datastore + ": " + std::strerror(errno));
  uint64_t size = 0;
  const int rc = ioctl(fd, BLKGETSIZE64, &size);
  const int err = errno;
  ::close(fd);
  if (rc != 0) fail(c, "cannot read the size of " + c.datastore + ": " + std::strerror(err));
  return size;
}

// The journal's volume id: the first 8 bytes of BLAKE2b (libsodium
// crypto_generichash) of the volume name, so recovery refuses a tier that
// another volume's journal is on.
uint64_t volume_id(const std::string& name) {
  sampling::ensure_sodium();
  unsigned char digest[crypto_generichash_BYTES_MIN];
  crypto_generichash(digest, sizeof digest, reinterpret_cast<const unsigned char*>(name.data()),
                     name.size(), nullptr, 0);
  uint64_t id = 0;
  std::memcpy(&id, digest, sizeof id);
  return id;
}

// Connects the peers, then opens the engine in write-back (journal recovery
// runs here, polling `queue`).
void open_write_back(ServedVolume& v, blockdev::UringQueue& queue, const cache::EvictionOptions& eviction,
                     std::function<void(std::string_view)> on_event) {
  const VolumeConfig& c = v.config;
  const uint64_t id = volume_id(c.name);
  // A tier file holds the journal (superblocks and ring) before the slots.
  const uint64_t need = cache::writeback::TierLayout::for_entries(c.journal_entries).slot_base + c.tier_bytes +
                        uint64_t{eviction.staging_slots} * cache::CacheEngine::kBlockBytes;
  struct stat st {};
  if (::stat(c.tier_file.c_str(), &st) == 0 && S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) < need &&
      ::truncate(c.tier_file.c_str(), static_cast<off_t>(need)) != 0) {
    fail(c, "cannot extend tier " + c.tier_file + ": " + std::strerror(errno));
  }
  std::string error;
  if (!c.peers.empty()) {
    // The lease's holder names this host and tier: the owner that restarts here finds its journal.
    v.lease = std::make_unique<replication::Lease>(c.lease_file, id, local_host_name() + ":" + c.tier_file,
                                                   std::chrono::milliseconds(c.lease_ms));
    replication::Hello hello;
    hello.lease_ms = c.lease_ms;
    hello.datastore = c.datastore;
    hello.lease_file = c.lease_file;
    if (replication::PeerSet::connect(c.peers, id, hello, kPeerAckTimeout, &v.peers, &error) != 0) {
      fail(c, "write-back peers: " + error);
    }
  }
  cache::WriteBackOptions wb;
  wb.volume_id = id;
  wb.journal_entries = c.journal_entries;
  wb.destage_rate_bytes_per_s = c.destage_rate_bytes_per_s;
  wb.replicas = v.peers.get();
  wb.ownership = v.lease.get();
  wb.eviction = eviction;
  wb.poll = [&queue] { queue.poll(true); };
  wb.on_event = std::move(on_event);
  cache::writeback::RecoveryReport r;
  if (const int rc = cache::CacheEngine::open_write_back(*v.datastore, *v.tier, c.tier_bytes, wb, &v.engine, &r,
                                                         &error);
      rc != 0) {
    fail(c, "write-back: " + (error.empty() ? errno_text(rc) : error));
  }
  v.recovery = r.formatted ? "fresh journal formatted"
               : r.fenced_discarded > 0
                   ? "journal fenced: " + std::to_string(r.fenced_discarded) + " records of epoch " +
                         std::to_string(r.fenced_epoch) + " discarded, not applied (a peer took the volume over)"
                   : "journal recovered: " + std::to_string(r.records_applied) + " records (" +
                         std::to_string(r.blocks_applied) + " blocks) applied, " +
                         std::to_string(r.torn_ignored) + " torn ignored";
  if (v.lease) v.recovery += "; owner of epoch " + std::to_string(r.epoch);
}

// ServedVolume::tier_room_bytes of a file or block-device tier.
uint64_t tier_room(const VolumeConfig& c, uint32_t staging_slots) {
  struct stat st {};
  if (::stat(c.tier_file.c_str(), &st) != 0) return c.tier_bytes;
  uint64_t size = static_cast<uint64_t>(st.st_size);
  if (S_ISBLK(st.st_mode)) {
    const int fd = ::open(c.tier_file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      if (ioctl(fd, BLKGETSIZE64, &size) != 0) size = 0;
      ::close(fd);
    }
  }
  const uint64_t reserved = (c.write_back ? cache::writeback::TierLayout::for_entries(c.journal_entries).slot_base : 0) +
                            uint64_t{staging_slots} * cache::CacheEngine::kBlockBytes;
  return std::max(c.tier_bytes, size > reserved ? size - reserved : 0);
}

}  // namespace

std::unique_ptr<ServedVolume> open_volume(const VolumeConfig& config, blockdev::UringQueue& queue,
                                          std::function<void(std::string_view)> on_event) {
  auto v = std::make_unique<ServedVolume>();
  v->config = config;
  struct stat st {};
  const bool exists = ::stat(config.datastore.c_str(), &st) == 0;
  if (!exists && errno != ENOENT) {
    fail(config, "cannot stat datastore " + config.datastore + ": " + std::strerror(errno));
  }
  if (exists && !S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
    fail(config, "datastore " + config.datastore + " is neither a regular file nor a block device");
  }
  v->block_device = exists && S_ISBLK(st.st_mode);
  const uint64_t current = v->block_device ? block_device_size(config)
                           : exists        ? static_cast<uint64_t>(st.st_size)
                                           : 0;
  if (config.size_bytes == 0) {
    if (current == 0) fail(config, "datastore " + config.datastore + " is missing or empty: give \"size\"");
    v->size_bytes = current / cache::CacheEngine::kSectorBytes * cache::CacheEngine::kSectorBytes;
  } else {
    if (v->block_device && config.size_bytes > current) {
      fail(config, "\"size\" " + std::to_string(config.size_bytes) + " exceeds block device " +
                       config.datastore + " (" + std::to_string(current) + " bytes)");
    }
    v->size_bytes = config.size_bytes;
  }
  if (const int rc = blockdev::UringFileDevice::open(queue, config.datastore, &v->datastore); rc != 0) {
    fail(config, "cannot open datastore " + config.datastore + ": " + errno_text(rc));
  }
  if (!v->block_device && current < v->size_bytes &&
      ::truncate(config.datastore.c_str(), static_cast<off_t>(v->size_bytes)) != 0) {
    fail(config, "cannot extend datastore " + config.datastore + ": " + std::strerror(errno));
  }
  cache::EvictionOptions eviction;
  if (!config.policy.empty()) eviction.policy = *cache::eviction::parse_policy(config.policy);
  if (config.sequential_cutoff_bytes != UINT64_MAX) eviction.sequential_cutoff_bytes = config.sequential_cutoff_bytes;
  eviction.staging_slots = kStagingSlots;
  // The tier holds the capacity plus the staging room of deferred eviction.
  const uint64_t tier_device_bytes = config.tier_bytes + uint64_t{kStagingSlots} * cache::CacheEngine::kBlockBytes;
  if (config.tier_file.empty()) {
    std::unique_ptr<blockdev::RamDevice> ram;
    if (const int rc = blockdev::RamDevice::create(tier_device_bytes, &ram); rc != 0) {
      fail(config, "RAM tier: " + errno_text(rc));
    }
    v->tier = std::move(ram);
  } else {
    std::unique_ptr<blockdev::UringFileDevice> file;
    if (const int rc = blockdev::UringFileDevice::open(queue, config.tier_file, &file); rc != 0) {
      fail(config, "cannot open tier " + config.tier_file + ": " + errno_text(rc));
    }
    if (file->buffer_alignment() > cache::CacheEngine::kSectorBytes) {
      fail(config, "tier " + config.tier_file + " needs " + std::to_string(file->buffer_alignment()) +
                       "-byte aligned buffers for direct I/O; the cache engine hands the tier "
                       "512-byte aligned ones");
    }
    v->tier = std::move(file);
  }
  if (config.write_back) {
    open_write_back(*v, queue, eviction, std::move(on_event));
    v->tier_room_bytes = tier_room(config, eviction.staging_slots);
    return v;
  }
  v->tier_room_bytes = config.tier_file.empty() ? config.tier_bytes : tier_room(config, eviction.staging_slots);
  if (const int rc = cache::CacheEngine::create(*v->datastore, *v->tier, config.tier_bytes, eviction, &v->engine);
      rc != 0) {
    fail(config, "cache engine: " + errno_text(rc));
  }
  v->engine->set_on_event(std::move(on_event));
  return v;
}

namespace {

struct FlushWait {
  int pending = 0;
  int status = 0;
};

void on_flushed(void* arg, int status) {
  auto* w = static_cast<FlushWait*>(arg);
  if (status != 0 && w->status == 0) w->status = status;
  --w->pending;
}

}  // namespace

int flush_volumes(const std::vector<std::unique_ptr<ServedVolume>>& volumes,
                  blockdev::UringQueue& queue) {
  FlushWait wait;
  for (const auto& v : volumes) {
    ++wait.pending;
    if (const int rc = v->engine->submit_flush(on_flushed, &wait); rc != 0) {
      --wait.pending;
      if (wait.status == 0) wait.status = rc;
    }
  }
  while (wait.pending > 0) {
    if (const int rc = queue.poll(true); rc < 0) return rc;
  }
  return wait.status;
}

}  // namespace tierwise::serve
