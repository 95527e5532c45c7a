#include "cli/spool_options.hpp"

#include <map>

#include "serve/byte_size.hpp"

namespace tierwise::cli {

void add_spool_options(CLI::App& cmd, std::string& dir, std::string& max_bytes,
                       double& drain_timeout_seconds) {
  cmd.add_option("--spool-dir", dir,
                 "Disk spool for batches ingest cannot take yet, sent in order later. Default: "
                 "$TIERWISE_AGENT_SPOOL_DIR, else spool/ beside the key file");
  cmd.add_option("--spool-max-bytes", max_bytes,
                 "Size bound of the spool (e.g. 256MiB); beyond it the oldest spooled batches "
                 "are dropped and counted")
      ->check(serve::byte_size_validator())
      ->capture_default_str();
  cmd.add_option("--drain-timeout", drain_timeout_seconds,
                 "At the end, how long to keep sending the spool (e.g. 60s, 2m, 0s); what is "
                 "left stays on disk")
      ->transform(CLI::AsNumberWithUnit(std::map<std::string, double>{{"s", 1}, {"m", 60}, {"h", 3600}},
                                        CLI::AsNumberWithUnit::CASE_SENSITIVE))
      ->check(CLI::Range(0.0, 86400.0))
      ->default_str("60s");
}

}  // namespace tierwise::cli
