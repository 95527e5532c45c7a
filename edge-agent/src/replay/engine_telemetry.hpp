// What the telemetry collectors take from a cache engine: its cumulative
// counters and each I/O's outcome (shared by `replay` and the live data plane
// of `serve`).
#pragma once

#include "cache/cache_engine.hpp"
#include "telemetry/interval_metrics.hpp"
#include "telemetry/volume_collector.hpp"

namespace tierwise::replay {

inline telemetry::CacheTotals totals_of(const cache::CacheCounters& c) {
  telemetry::CacheTotals t;
  for (size_t d = 0; d < telemetry::kDirectionCount; ++d) {
    t.hit_blocks[d] = c.hit_blocks[d];
    t.miss_blocks[d] = c.miss_blocks[d];
  }
  t.population_bytes = c.population_bytes;
  t.eviction_bytes = c.eviction_bytes;
  t.occupancy_bytes = c.occupancy_bytes;
  t.capacity_bytes = c.capacity_bytes;
  t.destaged_bytes = c.destaged_bytes;
  t.dirty_bytes = c.dirty_bytes;
  t.backlog_bytes = c.backlog_bytes;
  t.journal_bytes = c.journal_bytes;
  t.replicated_bytes = c.replicated_bytes;
  t.fallbacks = c.fallbacks;
  t.destage_errors = c.destage_errors;
  t.tier_errors = c.tier_errors;
  t.destage_rate_limit_bytes_per_s = c.destage_rate_limit_bytes_per_s;
  t.healthy_peers = c.healthy_peers;
  t.write_back = c.write_back;
  return t;
}

// Records one completed front-end I/O: its front-end count and latency, and
// the share each source (tier, datastore, WB+n peers) served. `io_length_bytes` is the
// length the client asked for (bins sizes and latencies); `completed_us` its
// time on the interval's clock (for the busiest second, PeakSecond).
inline void record_outcome(telemetry::VolumeCollector& c, uint32_t io_length_bytes,
                           const cache::IoOutcome& outcome, int64_t completed_us) {
  const trace::Direction d = outcome.direction;
  const size_t bin = c.record_frontend(d, io_length_bytes, outcome.frontend_latency_ns, completed_us);
  if (outcome.cache.bytes > 0) {
    c.record_source_in_bin(d, telemetry::Source::kCache, bin, outcome.cache.bytes, outcome.cache.latency_ns);
  }
  if (outcome.datastore.bytes > 0) {
    c.record_source_in_bin(d, telemetry::Source::kDatastore, bin, outcome.datastore.bytes,
                           outcome.datastore.latency_ns);
  }
  if (outcome.peer.bytes > 0) {
    c.record_source_in_bin(d, telemetry::Source::kPeer, bin, outcome.peer.bytes, outcome.peer.latency_ns);
  }
}

}  // namespace tierwise::replay
