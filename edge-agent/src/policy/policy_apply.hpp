// Applies a volume's desired policy to its running cache engine: what the
// engine can change live is changed, the rest is reported as an error.
#pragma once

#include <cstdint>
#include <string>

#include "cache/cache_engine.hpp"
#include "policy/policy_document.hpp"

namespace tierwise::policy {

// What a served volume was opened with (the volumes file); fixed while serving.
struct VolumeShape {
  uint64_t tier_bytes = 0;         // tier capacity, bytes
  uint64_t tier_device_bytes = 0;  // room the tier device has for cache slots, bytes
  bool ram = true;                 // RAM tier; false: a file or device (NVMe/SSD)
  bool journal = false;            // opened write-back: a journal, so WT<->WB is live
  uint32_t peers = 0;              // peers configured for WB+n
};

/*
 * apply_policy(): call on the thread that drives the engine (the reactor),
 * between polls; never blocks and never interrupts I/O in flight.
 *
 *  - mode: CacheEngine::set_mode switches write-through <-> write-back live
 *    (write-back needs a volume opened with a journal; WB+n needs n peers
 *    configured: with fewer, the mode is left as it is; with more, the
 *    volume runs WB+<peers>, stronger than asked, and says so);
 *  - tier size, media and eviction policy are fixed when the volume is opened
 *    (the engine keeps no live resize or policy swap): a desired value that
 *    differs from the volume's is reported, naming both, and a tier size
 *    beyond the tier device is reported as such.
 *
 * Returns the problems, "; "-separated; empty when all of the policy is in
 * effect.
 */
std::string apply_policy(const VolumePolicy& desired, const VolumeShape& shape,
                         cache::eviction::PolicyKind running_eviction, cache::CacheEngine& engine);

}  // namespace tierwise::policy
