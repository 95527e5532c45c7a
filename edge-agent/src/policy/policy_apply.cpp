#include "policy/policy_apply.hpp"

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

// Switches the engine's mode; returns the problem or "".
std::string apply_mode(const VolumePolicy& p, const VolumeShape& shape, cache::CacheEngine& engine) {
  if (!p.write_back) {
    engine.set_mode(cache::CacheMode::kWriteThrough);  // always succeeds; write-back drains
    return "";
  }
  if (!shape.journal) {
    return "write-back needs a volume opened with a journal (\"mode\": \"write-back\" and a tier file in the "
           "volumes file); the volume stays write-through";
  }
  if (p.write_back_copies > shape.peers) {
    return "WB+" + std::to_string(p.write_back_copies) + " needs " + std::to_string(p.write_back_copies) +
           " peers; the volume has " + std::to_string(shape.peers) + " (\"peers\" in the volumes file); mode left as it is";
  }
  if (const int rc = engine.set_mode(cache::CacheMode::kWriteBack); rc != 0) {
    return std::string("cannot switch to write-back: ") +
           (rc == -EPIPE ? "the peers have failed" : std::strerror(-rc));
  }
  if (p.write_back_copies < shape.peers) {
    return "runs WB+" + std::to_string(shape.peers) + " (peers configured in the volumes file), not WB+" +
           std::to_string(p.write_back_copies);
  }
  return "";
}

}  // namespace

std::string apply_policy(const VolumePolicy& p, const VolumeShape& shape, cache::eviction::PolicyKind running_eviction,
                         cache::CacheEngine& engine) {
  std::vector<std::string> problems;
  if (std::string m = apply_mode(p, shape, engine); !m.empty()) problems.push_back(std::move(m));
  if (p.tier_bytes > shape.tier_device_bytes) {
    problems.push_back("tier size " + mib(p.tier_bytes) + " is larger than the configured tier device (" +
                       mib(shape.tier_device_bytes) + ")");
  } else if (p.tier_bytes != shape.tier_bytes) {
    problems.push_back("tier size " + mib(p.tier_bytes) + " is not applied live (the tier holds " +
                       mib(shape.tier_bytes) + " until the volume is reopened)");
  }
  if (p.ram != shape.ram) {
    problems.push_back(std::string("media ") + (p.ram ? "ram" : "nvme") + " differs from the volume's " +
                       (shape.ram ? "RAM" : "file/NVMe") + " tier (set in the volumes file)");
  }
  if (p.eviction != running_eviction) {
    problems.push_back("eviction " + std::string(cache::eviction::policy_name(p.eviction)) +
                       " is not applied live (the tier runs " +
                       std::string(cache::eviction::policy_name(running_eviction)) + ")");
  }
  std::string text;
  for (const std::string& s : problems) text += (text.empty() ? "" : "; ") + s;
  return text;
}

}  // namespace tierwise::policy
