#include "policy/policy_apply.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace tierwise::policy {
namespace {

// "256 MiB", "0.5 MiB": whole MiB without decimals.
std::string mib(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f MiB", bytes % (1 << 20) == 0 ? 0 : 2, static_cast<double>(bytes) / (1 << 20));
  return buf;
}

// What apply_policy collects: problems and live changes.
struct Notes {
  std::vector<std::string> problems, changes;
};

std::string joined(const std::vector<std::string>& parts) {
  std::string text;
  for (const std::string& s : parts) text += (text.empty() ? "" : "; ") + s;
  return text;
}

void apply_mode(const VolumePolicy& p, const VolumeShape& shape, cache::CacheEngine& engine, Notes* notes) {
  const bool was_write_back = engine.counters().write_back;
  if (!p.write_back) {
    engine.set_mode(cache::CacheMode::kWriteThrough);  // always succeeds; write-back drains
    if (was_write_back && engine.mode() == cache::CacheMode::kWriteBack) {
      notes->changes.push_back("write-back -> write-through (destaging " + mib(engine.counters().dirty_bytes) +
                               " dirty)");
    }
    return;
  }
  if (!shape.journal) {
    notes->problems.push_back(
        "write-back needs a volume opened with a journal (\"mode\": \"write-back\" and a tier file in the "
        "volumes file); the volume stays write-through");
    return;
  }
  if (p.write_back_copies > shape.peers) {
    notes->problems.push_back("WB+" + std::to_string(p.write_back_copies) + " needs " +
                              std::to_string(p.write_back_copies) + " peers; the volume has " +
                              std::to_string(shape.peers) + " (\"peers\" in the volumes file); mode left as it is");
    return;
  }
  if (const int rc = engine.set_mode(cache::CacheMode::kWriteBack); rc != 0) {
    notes->problems.push_back(std::string("cannot switch to write-back: ") +
                              (rc == -EPIPE   ? "the peers have failed"
                               : rc == -EIO ? "the tier device failed and is disabled until the agent restarts"
                                            : std::strerror(-rc)));
    return;
  }
  if (!was_write_back) notes->changes.push_back("write-through -> write-back");
  if (p.write_back_copies < shape.peers) {
    notes->problems.push_back("runs WB+" + std::to_string(shape.peers) +
                              " (peers configured in the volumes file), not WB+" +
                              std::to_string(p.write_back_copies));
  }
}

void apply_tier_size(const VolumePolicy& p, const VolumeShape& shape, cache::CacheEngine& engine, Notes* notes) {
  const cache::CacheCounters& c = engine.counters();
  const uint64_t before = c.capacity_bytes;
  if (p.tier_bytes == before) return;
  const uint64_t evicted_before = c.eviction_bytes;
  const int rc = engine.set_tier_capacity(p.tier_bytes, shape.tier_device_bytes);
  if (rc == -ENOSPC) {
    notes->problems.push_back("tier size " + mib(p.tier_bytes) + " is larger than the configured tier device (" +
                              mib(shape.tier_device_bytes) + "); the tier holds " + mib(before));
    return;
  }
  if (rc != 0) {
    notes->problems.push_back("tier size " + mib(p.tier_bytes) +
                              " is below what the write-back journal needs (twice its entries in 4 KiB slots); "
                              "the tier holds " + mib(before));
    return;
  }
  std::string change = "tier " + mib(before) + " -> " + mib(p.tier_bytes);
  if (p.tier_bytes < before) {
    change += " (evicted " + mib(c.eviction_bytes - evicted_before);
    if (c.occupancy_bytes > c.capacity_bytes) {
      change += "; " + mib(c.occupancy_bytes - c.capacity_bytes) + " of dirty blocks leave once destaged";
    }
    change += ")";
  }
  notes->changes.push_back(std::move(change));
}

}  // namespace

ApplyOutcome apply_policy(const VolumePolicy& p, const VolumeShape& shape, cache::CacheEngine& engine) {
  Notes notes;
  apply_mode(p, shape, engine, &notes);
  apply_tier_size(p, shape, engine, &notes);
  const cache::eviction::PolicyKind running = engine.index().policy().kind();
  if (p.eviction != running) {
    engine.set_eviction_policy(p.eviction);
    notes.changes.push_back("eviction " + std::string(cache::eviction::policy_name(running)) + " -> " +
                            std::string(cache::eviction::policy_name(p.eviction)));
  }
  if (p.ram != shape.ram) {
    notes.problems.push_back(std::string("media ") + (p.ram ? "ram" : "nvme") + " differs from the volume's " +
                             (shape.ram ? "RAM" : "file/NVMe") + " tier (set in the volumes file)");
  }
  return {joined(notes.problems), joined(notes.changes)};
}

}  // namespace tierwise::policy
