// Options of `tierwise-agent replay` (src/cli/replay_command.cpp parses them).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cache/eviction/eviction_policy.hpp"
#include "cache/sequential_cutoff.hpp"
#include "sampling/reference_batcher.hpp"
#include "trace/trace_reader.hpp"

namespace tierwise::replay {

struct ReplayOptions {
  std::vector<std::string> traces;           // trace files, replayed one after the other
  std::optional<trace::TraceFormat> format;  // nullopt: detect per file
  std::string ingest_url;                    // base URL; empty: replay and summarize only
  std::string token;                         // agent token for ingest
  bool dry_run = false;                      // replay and summarize, never export
  std::string key_file;                      // tenant key; empty: sampling::default_key_file_path()
  uint64_t tier_bytes = 256ull << 20;        // RAM tier capacity per volume, bytes
  cache::eviction::PolicyKind eviction = cache::eviction::kDefaultPolicy;  // per volume
  // Sequential cut-off per volume, bytes (cache::SequentialCutoff); 0: off (the default,
  // chosen by the measurements of docs/eviction.md).
  uint64_t sequential_cutoff_bytes = 0;
  int64_t interval_us = 10'000'000;          // telemetry interval of trace time, >= 1 s
  double sample_rate = 1.0;                  // initial SHARDS sampling rate R
  // Bound of each volume's sample (0: fixed rate).
  size_t max_sampled_blocks = sampling::ReferenceBatcher::kDefaultMaxSampledBlocks;
  std::string datastore_dir;                 // empty: a temporary directory, removed at the end
  bool send_names = false;                   // add host.name / tierwise.volume.name
  std::string host_name;                     // empty: gethostname()
  std::string cluster_name;                  // the host's cluster; empty: none
  std::string otlp_endpoint;                 // a second destination of the metrics (OpenTelemetry collector)
  std::vector<std::string> otlp_headers;     // its "Name: value" headers
  std::string json_summary;                  // path of the JSON summary; empty: none
  unsigned queue_depth = 32;                 // front-end I/Os in flight at once
  std::string spool_dir;                     // disk spool; empty: replay::resolve_spool_dir()
  uint64_t spool_max_bytes = 256ull << 20;   // bound of the spool, bytes (oldest dropped beyond)
  double drain_timeout_seconds = 60;         // at the end, wait this long for the spool to empty
};

}  // namespace tierwise::replay
