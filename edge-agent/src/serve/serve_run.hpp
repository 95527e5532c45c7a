// `tierwise-agent serve`: the volumes of a volumes file served over NBD
// through write-through cache engines, with live telemetry.
#pragma once

#include <signal.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "serve/serve_config.hpp"

namespace tierwise::serve {

struct ServeOptions {
  std::string config_path;          // volumes file (serve_config.hpp)
  std::string socket_path;          // Unix socket; overrides the file's "listen"
  std::string tcp_listen;           // "HOST:PORT" (IPv4); overrides the file's "listen"
  bool telemetry = true;            // collectors and SHARDS sampling on the data plane
  bool lru_anchor = false;          // with telemetry: the LRU anchor on every block reference
  std::string ingest_url;           // export to ingest when set (needs token)
  std::string token;
  bool policy_pull = true;          // with ingest_url: pull and apply the desired policies
  std::string key_file;             // tenant key; empty: sampling::default_key_file_path()
  double interval_seconds = 10;     // telemetry interval (wall clock), >= 1
  double sample_rate = 0.01;        // SHARDS sampling rate R
  bool send_names = false;
  std::string host_name;            // empty: gethostname()
  std::string cluster_name;         // the host's cluster; empty: none
  std::string otlp_endpoint;        // a second destination of the metrics (OpenTelemetry collector)
  std::vector<std::string> otlp_headers;  // its "Name: value" headers
  std::string spool_dir;
  uint64_t spool_max_bytes = 256ull << 20;
  double drain_timeout_seconds = 60;  // at exit, wait this long for the export to drain
};

// What the data plane knows of itself, given to ServeHooks::on_status.
struct ServeStatus {
  uint64_t volume_count = 0;
  uint64_t tier_used_bytes = 0;      // bytes of cache tier holding blocks (engine occupancy), all volumes
  uint64_t tier_capacity_bytes = 0;  // bytes of cache tier configured, all volumes
  uint64_t error_count = 0;          // batches rejected or not delivered, spooled batches dropped
  std::string last_error;            // the export's first problem; empty: none
};

// Callbacks of a long-running agent (`tierwise-agent run`) into the serve loop.
struct ServeHooks {
  // Called on the reactor thread once serving starts and after every
  // telemetry interval; must not block (hand the status to another thread).
  std::function<void(const ServeStatus&)> on_status;
};

// Exit codes of `serve` beyond 0 (stopped by SIGTERM/SIGINT after an orderly
// drain) and 1 (failure: a datastore cannot be opened, io_uring, the socket,
// a failed final flush): 4 and 5 as `replay` (batches rejected / undelivered).
//
// Serves until SIGTERM or SIGINT, then stops taking requests, completes those
// in flight, flushes every datastore (fdatasync), closes the last telemetry
// interval and drains the export. Log lines go to stderr. Throws
// std::invalid_argument for a bad volumes file or options (exit 2) and
// std::runtime_error when serving cannot start.
int run_serve(const ServeOptions& options);

// Blocks SIGTERM and SIGINT in the calling thread (and the threads it starts
// afterwards) so that they are taken synchronously (serve's signalfd, or
// sigwait); returns that set.
sigset_t block_stop_signals();

// run_serve with the volumes already parsed (options.config_path unused) and
// `hooks` called as ServeHooks says. `config.volumes` must not be empty.
int run_serve_config(const ServeOptions& options, const ServeConfig& config, const ServeHooks& hooks);

}  // namespace tierwise::serve
