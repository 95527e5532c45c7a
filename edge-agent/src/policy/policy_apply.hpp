// Applies a volume's desired policy to its running cache engine: mode, tier
// size and eviction policy change live; what the volume's hardware cannot do
// is reported as an error.
#pragma once

#include <cstdint>
#include <string>

#include "cache/cache_engine.hpp"
#include "policy/policy_document.hpp"

namespace tierwise::policy {

// What a served volume was opened with (the volumes file); fixed while serving.
struct VolumeShape {
  uint64_t tier_device_bytes = 0;  // room the tier device has for cache slots, bytes
  bool ram = true;                 // RAM tier; false: a file or device (NVMe/SSD)
  bool journal = false;            // opened write-back: a journal, so WT<->WB is live
  uint32_t peers = 0;              // peers configured for WB+n
};

// What apply_policy() did.
struct ApplyOutcome {
  // What could not be applied, "; "-separated; empty when all of the policy is
  // in effect (the applied report's error).
  std::string problems;
  // What changed live, "; "-separated, e.g. "tier 64 MiB -> 1024 MiB",
  // "eviction s3fifo -> lru", "write-through -> write-back"; empty: nothing.
  std::string changes;
};

/*
 * apply_policy(): call on the thread that drives the engine (the reactor),
 * between polls; never blocks and never interrupts I/O in flight.
 *
 *  - mode: CacheEngine::set_mode switches write-through <-> write-back live
 *    (write-back needs a volume opened with a journal; WB+n needs n peers
 *    configured: with fewer, the mode is left as it is; with more, the
 *    volume runs WB+<peers>, stronger than asked, and says so);
 *  - tier size: CacheEngine::set_tier_capacity, live, within the tier device
 *    (a size beyond it is reported and the tier keeps its size; in write-back,
 *    a size below twice the journal's entries too);
 *  - eviction: CacheEngine::set_eviction_policy, live;
 *  - media is the volume's hardware: a different one is reported.
 */
ApplyOutcome apply_policy(const VolumePolicy& desired, const VolumeShape& shape, cache::CacheEngine& engine);

}  // namespace tierwise::policy
