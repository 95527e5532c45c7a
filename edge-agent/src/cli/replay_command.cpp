#include "cli/replay_command.hpp"

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "serve/byte_size.hpp"
#include "cli/export_options.hpp"
#include "cli/spool_options.hpp"
#include "replay/replay.hpp"
#include "trace/trace_reader.hpp"

namespace tierwise::cli {
namespace {

struct ReplayArguments {
  replay::ReplayOptions options;
  std::string tier_size = "256MiB";
  double interval_seconds = 10;
  std::string format = "auto";
  std::string spool_max = "256MiB";
  std::string eviction{cache::eviction::policy_name(cache::eviction::kDefaultPolicy)};
  std::string sequential_cutoff = "off";
};

std::vector<std::string> format_choices() {
  std::vector<std::string> names{"auto"};
  for (trace::TraceFormat f : trace::all_trace_formats()) {
    names.emplace_back(trace::trace_format_name(f));
  }
  return names;
}

void run(ReplayArguments& args) {
  replay::ReplayOptions& o = args.options;
  o.tier_bytes = *serve::parse_byte_size(args.tier_size);  // checked by serve::byte_size_validator()
  o.interval_us = std::llround(args.interval_seconds * 1e6);
  o.spool_max_bytes = *serve::parse_byte_size(args.spool_max);  // checked by serve::byte_size_validator()
  o.sequential_cutoff_bytes =  // checked by the option's validator
      args.sequential_cutoff == "off" || args.sequential_cutoff == "0"
          ? 0
          : *serve::parse_byte_size(args.sequential_cutoff);
  o.eviction = *cache::eviction::parse_policy(args.eviction);  // checked by IsMember
  if (args.format != "auto") o.format = trace::parse_trace_format(args.format);
  run_with_exit_code([&] { return replay::run_replay(o); });
}

}  // namespace

void register_replay_command(CLI::App& app) {
  auto args = std::make_shared<ReplayArguments>();
  replay::ReplayOptions& o = args->options;
  CLI::App* cmd = app.add_subcommand(
      "replay",
      "Replay block traces through the write-through cache engine (RAM tier over an io_uring "
      "datastore), collect per-volume telemetry, sample references (SHARDS) and export both "
      "to ingest (OTLP/HTTP and ReferenceBatch). Without --ingest, or with --dry-run, only "
      "replays and prints the summary.");
  cmd->add_option("traces", o.traces, "Trace files (vscsi, CloudPhysics/MSR/SYSTOR/Tencent CSV; .gz/.bz2)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--format", args->format, "Trace format, or auto to detect it per file")
      ->check(CLI::IsMember(format_choices()))
      ->capture_default_str();
  add_export_options(*cmd, {o.ingest_url, o.token, o.key_file, args->interval_seconds, o.sample_rate,
                            o.send_names, o.host_name, o.cluster_name, o.otlp_endpoint, o.otlp_headers},
                     "Telemetry interval of trace time (e.g. 10s, 1m; at least 1s)");
  cmd->add_option("--tier-size", args->tier_size, "RAM tier capacity per volume (e.g. 256MiB)")
      ->check(serve::byte_size_validator())
      ->capture_default_str();
  cmd->add_option("--eviction", args->eviction,
                  "Eviction policy of each volume's tier: lru, s3fifo (Yang et al., SOSP 2023), "
                  "arc (Megiddo & Modha, FAST 2003), 2q (Johnson & Shasha, VLDB 1994) or sieve "
                  "(Zhang et al., NSDI 2024); "
                  "docs/eviction.md compares them on the real traces")
      ->check(CLI::IsMember(cache::eviction::policy_names()))
      ->capture_default_str();
  cmd->add_option("--sequential-cutoff", args->sequential_cutoff,
                  "I/Os of a sequential stream that reached this many bytes do not populate the "
                  "tier (as bcache's sequential_cutoff, whose default is 4MiB); off or 0: never")
      ->check(serve::byte_size_validator() | CLI::IsMember({"off", "0"}))
      ->capture_default_str();
  cmd->add_option("--max-sampled-blocks", o.max_sampled_blocks,
                  "Bound of each volume's sample: T falls as the footprint grows (0: fixed rate)")
      ->capture_default_str();
  cmd->add_option("--datastore-dir", o.datastore_dir,
                  "Directory for the sparse datastore files (kept). Default: a temporary "
                  "directory, removed at the end");
  cmd->add_option("--json-summary", o.json_summary, "Write a JSON summary to this file");
  cmd->add_flag("--dry-run", o.dry_run, "Replay and summarize; export nothing");
  cmd->add_option("--queue-depth", o.queue_depth, "Front-end I/Os in flight at once")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  add_spool_options(*cmd, o.spool_dir, args->spool_max, o.drain_timeout_seconds);
  cmd->footer(
      "Batches ingest cannot take (unreachable, 5xx, 429 after retries) are written to the "
      "spool and sent in order once it is back; batches a previous run left there are sent "
      "first. The host's and its volumes' working-set samples are kept in working-sets/ beside "
      "the spool, so the next trace or run goes on with them, as serve does.\n"
      "Exit codes: 0 ok; 1 failure (datastore); 2 unreadable trace; 3 malformed records "
      "skipped; 4 ingest rejected batches (e.g. HTTP 401); 5 batches not delivered: left in "
      "the spool after --drain-timeout (sent by the next replay or send-spool) or dropped at "
      "--spool-max-bytes.");
  cmd->callback([args] { run(*args); });
}

}  // namespace tierwise::cli
