// Command-line options of the disk spool, shared by `replay` and `send-spool`.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace tierwise::cli {

// Adds --spool-dir (into `dir`), --spool-max-bytes (a byte size such as
// "256MiB", into `max_bytes`) and --drain-timeout (seconds; "60s", "2m"; into
// `drain_timeout_seconds`) to `cmd`.
void add_spool_options(CLI::App& cmd, std::string& dir, std::string& max_bytes,
                       double& drain_timeout_seconds);

}  // namespace tierwise::cli
