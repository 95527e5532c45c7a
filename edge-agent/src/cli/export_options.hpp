// Command-line options of the telemetry export, shared by `replay` and `serve`,
// and the way both end with an exit code.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace tierwise::cli {

// Where the parsed options go.
struct ExportOptionTargets {
  std::string& ingest_url;
  std::string& token;
  std::string& key_file;
  double& interval_seconds;
  double& sample_rate;
  bool& send_names;
  std::string& host_name;
  std::string& cluster_name;
  std::string& otlp_endpoint;
  std::vector<std::string>& otlp_headers;
};

// Adds --ingest, --token (also $TIERWISE_AGENT_TOKEN) and --key-file to `cmd`:
// where telemetry goes and the tenant key its pseudonyms are made with.
void add_ingest_options(CLI::App& cmd, std::string& ingest_url, std::string& token, std::string& key_file);

// Adds the ingest options (add_ingest_options), --interval
// ("10s", "1m"; 1 s to 1 day; described by `interval_help`), --sample-rate
// (SHARDS R), --send-names, --host-name, --cluster, --otlp-endpoint and --otlp-header to `cmd`.
void add_export_options(CLI::App& cmd, const ExportOptionTargets& targets,
                        const std::string& interval_help);

// Runs a subcommand's body, which returns an exit code: std::invalid_argument
// becomes a usage error naming the problem (exit 2), a non-zero code ends the
// program with that code (CLI::RuntimeError).
void run_with_exit_code(const std::function<int()>& body);

}  // namespace tierwise::cli
