#include "cli/export_options.hpp"

#include <map>
#include <stdexcept>

#include "sampling/shards_sampler.hpp"

namespace tierwise::cli {

void add_ingest_options(CLI::App& cmd, std::string& ingest_url, std::string& token, std::string& key_file) {
  cmd.add_option("--ingest", ingest_url, "Ingest base URL, e.g. http://127.0.0.1:4318");
  cmd.add_option("--token", token, "Agent token (Authorization: Bearer)")->envname("TIERWISE_AGENT_TOKEN");
  cmd.add_option("--key-file", key_file,
                 "Tenant key file (32 hex characters; created when missing). Default: "
                 "$TIERWISE_AGENT_KEY_FILE or /etc/tierwise/anonymization.key");
}

void add_export_options(CLI::App& cmd, const ExportOptionTargets& t,
                        const std::string& interval_help) {
  add_ingest_options(cmd, t.ingest_url, t.token, t.key_file);
  cmd.add_option("--interval", t.interval_seconds, interval_help)
      ->transform(CLI::AsNumberWithUnit(std::map<std::string, double>{{"s", 1}, {"m", 60}, {"h", 3600}},
                                        CLI::AsNumberWithUnit::CASE_SENSITIVE))
      ->check(CLI::Range(1.0, 86400.0))
      ->default_str("10s");
  cmd.add_option("--sample-rate", t.sample_rate, "SHARDS sampling rate R")
      ->check(CLI::Range(1.0 / sampling::kShardsModulus, 1.0))
      ->capture_default_str();
  cmd.add_flag("--send-names", t.send_names, "Also send host.name and tierwise.volume.name");
  cmd.add_option("--host-name", t.host_name, "Host name to report (default: this host's)");
  cmd.add_option("--cluster", t.cluster_name,
                 "Name of the cluster whose shared tier this host uses; its keyed hash is sent as "
                 "tierwise.cluster.id (default: none)");
  cmd.add_option("--otlp-endpoint", t.otlp_endpoint,
                 "Also send the metrics to this OpenTelemetry collector (OTLP/HTTP protobuf base URL, "
                 "e.g. http://otel-collector:4318; POST <url>/v1/metrics)")
      ->envname("TIERWISE_OTLP_ENDPOINT");
  cmd.add_option("--otlp-header", t.otlp_headers,
                 "A \"Name: value\" header for the collector, e.g. \"Authorization: Basic ...\" (repeatable)");
}

void run_with_exit_code(const std::function<int()>& body) {
  int code = 0;
  try {
    code = body();
  } catch (const std::invalid_argument& e) {
    throw CLI::ValidationError(e.what());
  }
  if (code != 0) throw CLI::RuntimeError(code);
}

}  // namespace tierwise::cli
