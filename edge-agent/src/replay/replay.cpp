#include "replay/replay.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>

#include "blockdev/uring_queue.hpp"
#include "common/version.hpp"
#include "export/http_sender.hpp"
#include "export/volume_exporter.hpp"
#include "replay/datastore_dir.hpp"
#include "replay/spool_report.hpp"
#include "replay/trace_replay.hpp"
#include "sampling/keyed_hash.hpp"
#include "sampling/shards_sampler.hpp"
#include "sampling/tenant_key.hpp"

namespace tierwise::replay {
namespace {

// Submission slots of the shared io_uring (front-end I/Os in flight times the
// datastore requests each may need, with room to spare).
constexpr unsigned kRingEntries = 1024;

void validate(const ReplayOptions& o) {
  if (o.traces.empty()) throw std::invalid_argument("no trace file given");
  if (o.interval_us < 1'000'000) throw std::invalid_argument("--interval must be at least 1 s");
  if (o.tier_bytes < cache::CacheEngine::kBlockBytes) {
    throw std::invalid_argument("--tier-size must be at least 4096 bytes");
  }
  if (!(o.sample_rate > 0 && o.sample_rate <= 1)) {
    throw std::invalid_argument("--sample-rate must be in (0, 1]");
  }
  if (o.queue_depth == 0) throw std::invalid_argument("--queue-depth must be at least 1");
  if (o.spool_max_bytes == 0) throw std::invalid_argument("--spool-max-bytes must be more than 0");
  if (!(o.drain_timeout_seconds >= 0)) throw std::invalid_argument("--drain-timeout must be >= 0");
  if (!o.ingest_url.empty() && !o.dry_run && o.token.empty()) {
    throw std::invalid_argument("--ingest needs --token (the agent token)");
  }
}

// Volumes each hold a datastore file open: allow as many descriptors as the
// hard limit permits (the Tencent CBS sample has 2,038 volumes).
void raise_open_file_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
}

std::string local_host_name() {
  char name[256] = {0};
  if (gethostname(name, sizeof name - 1) != 0) return "localhost";
  return name;
}

int64_t unix_now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

int exit_code_for(const std::vector<TraceSummary>& summaries, const exporter::SpoolStats& spool) {
  const int spool_code = spool_exit_code(spool);
  bool unreadable = false, rejected = false, undelivered = false, malformed = false;
  for (const TraceSummary& s : summaries) {
    if ((!s.error.empty() && !s.unreadable) || s.io_errors > 0) return kExitFailure;
    unreadable |= s.unreadable;
    rejected |= s.batches_rejected > 0;
    undelivered |= s.batches_failed > 0;
    malformed |= s.malformed > 0;
  }
  if (unreadable) return kExitUsage;
  if (rejected || spool_code == kExitRejected) return kExitRejected;
  if (undelivered || spool_code == kExitUndelivered) return kExitUndelivered;
  if (malformed) return kExitMalformed;
  return kExitOk;
}

void write_json(const std::string& path, const ReplayOptions& o,
                const std::vector<TraceSummary>& summaries, const exporter::SpoolStats& spool,
                int exit_code) {
  nlohmann::json j;
  j["exit_code"] = exit_code;
  j["tier_bytes"] = o.tier_bytes;
  j["eviction"] = cache::eviction::policy_name(o.eviction);
  j["sequential_cutoff_bytes"] = o.sequential_cutoff_bytes;
  j["interval_seconds"] = static_cast<double>(o.interval_us) / 1e6;
  j["sample_rate"] = o.sample_rate;
  j["max_sampled_blocks"] = o.max_sampled_blocks;
  j["exported"] = !o.ingest_url.empty() && !o.dry_run;
  if (j["exported"]) add_spool_json(j, spool);
  j["traces"] = nlohmann::json::array();
  for (const TraceSummary& s : summaries) j["traces"].push_back(summary_json(s));
  std::ofstream out(path);
  out << j.dump(2) << "\n";
  if (!out) throw std::runtime_error("cannot write JSON summary " + path + ": " + std::strerror(errno));
}

}  // namespace

int run_replay(const ReplayOptions& input) {
  validate(input);
  ReplayOptions options = input;
  if (options.host_name.empty()) options.host_name = local_host_name();
  const bool exporting = !options.ingest_url.empty() && !options.dry_run;

  const std::string key_path =
      options.key_file.empty() ? sampling::default_key_file_path() : options.key_file;
  bool created = false;
  const sampling::TenantKey key = sampling::load_or_create_key_file(key_path, &created);
  if (created) std::fprintf(stderr, "tierwise-agent: created a new tenant key in %s\n", key_path.c_str());
  const sampling::KeyedHasher hasher(key);
  const sampling::ShardsSampler sampler(hasher, options.sample_rate);

  raise_open_file_limit();
  DatastoreDir datastore(options.datastore_dir);
  std::unique_ptr<blockdev::UringQueue> queue;
  if (const int rc = blockdev::UringQueue::create(kRingEntries, &queue); rc != 0) {
    throw std::runtime_error(std::string("io_uring setup failed: ") + std::strerror(-rc));
  }
  std::unique_ptr<exporter::HttpSender> sender;
  if (exporting) {
    exporter::SenderConfig config;
    config.ingest_url = options.ingest_url;
    config.token = options.token;
    config.user_agent = versioned_user_agent();
    config.spool_dir = resolve_spool_dir(options.spool_dir, key_path);
    config.spool_max_bytes = options.spool_max_bytes;
    config.collector_url = options.otlp_endpoint;
    config.collector_headers = options.otlp_headers;
    sender = std::make_unique<exporter::HttpSender>(config);
  }

  // One agent per host: the traces of a run, and the runs, go on with the
  // host's and its volumes' working-set samples, as `serve` does across restarts.
  const ReplayContext context{&options, queue.get(), sender.get(), &hasher, &sampler,
                              datastore.path(), unix_now_us(), agent_version(),
                              sender ? exporter::VolumeExporter::working_set_dir_beside(
                                           resolve_spool_dir(options.spool_dir, key_path))
                                     : std::string()};
  std::vector<TraceSummary> summaries;
  for (size_t i = 0; i < options.traces.size(); ++i) {
    TraceReplay replay(context, i, options.traces[i]);
    summaries.push_back(replay.run());
  }
  exporter::SpoolStats spool;
  if (sender) {
    std::fprintf(stderr, "tierwise-agent: waiting for the export queue and spool to drain (at most %g s)\n",
                 options.drain_timeout_seconds);
    sender->drain_for(std::chrono::milliseconds(std::llround(options.drain_timeout_seconds * 1000)));
    sender->stop();  // what is still queued joins the spool
    spool = sender->spool_stats();
    for (size_t i = 0; i < summaries.size(); ++i) {
      const exporter::DeliveryStats st = sender->stats(i);
      summaries[i].batches_sent = st.sent;
      summaries[i].batches_rejected = st.rejected;
      summaries[i].batches_failed = st.failed;
      summaries[i].export_problem = st.first_problem;
    }
  }

  const int code = exit_code_for(summaries, spool);
  const std::string eviction =
      std::string(cache::eviction::policy_name(options.eviction)) + " eviction, sequential cut-off " +
      (options.sequential_cutoff_bytes == 0 ? std::string("off")
                                            : std::to_string(options.sequential_cutoff_bytes >> 10) + " KiB");
  for (const TraceSummary& s : summaries) print_summary(std::cout, s, options.tier_bytes, eviction);
  if (exporting) print_spool_summary(std::cout, spool);
  if (sender) print_collector_summary(std::cout, *sender, summaries.size());
  if (!exporting) std::cout << "(not exported: " << (options.dry_run ? "--dry-run" : "no --ingest") << ")\n";
  std::cout.flush();
  if (!options.json_summary.empty()) write_json(options.json_summary, options, summaries, spool, code);
  return code;
}

}  // namespace tierwise::replay
