#include "cli/serve_command.hpp"

#include <memory>
#include <string>

#include "serve/byte_size.hpp"
#include "cli/export_options.hpp"
#include "serve/serve_run.hpp"
#include "cli/spool_options.hpp"

namespace tierwise::cli {
namespace {

struct ServeArguments {
  serve::ServeOptions options;
  bool no_telemetry = false;
  bool no_policy = false;
  std::string spool_max = "256MiB";
};

void run(ServeArguments& args) {
  serve::ServeOptions& o = args.options;
  o.telemetry = !args.no_telemetry;
  o.policy_pull = !args.no_policy;
  o.spool_max_bytes = *serve::parse_byte_size(args.spool_max);  // checked by serve::byte_size_validator()
  run_with_exit_code([&] { return serve::run_serve(o); });
}

}  // namespace

void register_serve_command(CLI::App& app) {
  auto args = std::make_shared<ServeArguments>();
  serve::ServeOptions& o = args->options;
  CLI::App* cmd = app.add_subcommand(
      "serve",
      "Serve the volumes of a volumes file over NBD (one export per volume; Unix socket or "
      "TCP) through the write-through cache engine (RAM tier over an io_uring datastore), "
      "with live telemetry and SHARDS sampling exported to ingest like `replay`. Runs until "
      "SIGTERM or SIGINT.");
  cmd->add_option("--config", o.config_path,
                  "Volumes file (JSON): {\"listen\": \"unix:/path\", \"volumes\": [{\"name\": "
                  "\"vm1\", \"datastore\": \"/data/vm1.img\", \"size\": \"10GiB\", \"tier\": "
                  "{\"ram\": \"1GiB\"}, \"policy\": \"lru\"}]}")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--socket", o.socket_path, "Listen on this Unix socket (overrides \"listen\")");
  cmd->add_option("--listen", o.tcp_listen, "Listen on TCP HOST:PORT, e.g. 127.0.0.1:10809 (overrides \"listen\")");
  cmd->add_flag("--no-telemetry", args->no_telemetry, "Collect no telemetry and sample nothing");
  cmd->add_flag("--lru-anchor", o.lru_anchor,
                "Also count an exact 4 MiB LRU cache over every block reference, which the service "
                "anchors each volume's miss ratio curve on (more accurate MRCs: docs/analytics.md; "
                "about 1 % fewer IOPS on 4 KiB random I/O: docs/nbd.md)");
  cmd->add_flag("--no-policy", args->no_policy,
                "Do not pull the volumes' desired policies from the service (with --ingest they are "
                "long-polled, applied live and reported applied: docs/policies.md)");
  add_export_options(*cmd, {o.ingest_url, o.token, o.key_file, o.interval_seconds, o.sample_rate,
                            o.send_names, o.host_name, o.cluster_name, o.otlp_endpoint, o.otlp_headers},
                     "Telemetry interval (wall clock; e.g. 10s, 1m; at least 1s)");
  add_spool_options(*cmd, o.spool_dir, args->spool_max, o.drain_timeout_seconds);
  cmd->footer(
      "Log lines (volumes, the listen address, one line per volume and interval, the stop) go "
      "to stderr.\n"
      "Exit codes: 0 stopped by SIGTERM/SIGINT after finishing in-flight requests and flushing "
      "the datastores; 1 failure (datastore, socket, io_uring); 2 bad volumes file or options; "
      "4 ingest rejected batches; 5 batches not delivered (left in the spool).");
  cmd->callback([args] { run(*args); });
}

}  // namespace tierwise::cli
