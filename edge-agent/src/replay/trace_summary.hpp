// What the replay of one trace did: the human summary and the JSON summary.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tierwise::replay {

struct TraceSummary {
  std::string trace;   // path as given
  std::string format;  // trace format name
  std::string error;   // why the replay stopped early; empty when it completed
  bool unreadable = false;  // the error is the trace's: it cannot be opened or read
  uint64_t records = 0;    // well-formed records replayed
  uint64_t malformed = 0;  // malformed records skipped
  uint64_t volumes = 0;
  uint64_t reads = 0, writes = 0;
  uint64_t read_bytes = 0, write_bytes = 0;
  // Cache engine, 4 KiB blocks, all volumes.
  uint64_t hits = 0, misses = 0;
  uint64_t read_hits = 0, read_misses = 0;
  uint64_t population_bytes = 0, eviction_bytes = 0;
  uint64_t fill_bytes = 0;  // datastore reads completing blocks partly written
  uint64_t bypass_bytes = 0;  // missing blocks not inserted: sequential cut-off
  uint64_t io_errors = 0;  // front-end I/Os that completed with an error
  uint64_t references = 0; // SHARDS references sampled
  uint64_t intervals = 0;  // telemetry intervals closed (per trace, all volumes)
  uint64_t batches_sent = 0, batches_rejected = 0, batches_failed = 0;
  std::string export_problem;  // first rejection/failure reported by the sender
  double trace_seconds = 0;    // span of trace time
  double wall_seconds = 0;     // replay time
};

// Hit ratio over all 4 KiB blocks (METRICS.md), or -1 when nothing was accessed.
double hit_ratio(const TraceSummary& s);

// Human-readable summary of one trace (several lines); `eviction` names the
// tiers' eviction policy and sequential cut-off.
void print_summary(std::ostream& out, const TraceSummary& s, uint64_t tier_bytes,
                   const std::string& eviction);

// JSON object: records, malformed, volumes, reads, writes, read_bytes,
// write_bytes, hits, misses, batches_sent, batches_rejected, plus the other
// fields of TraceSummary.
nlohmann::json summary_json(const TraceSummary& s);

}  // namespace tierwise::replay
