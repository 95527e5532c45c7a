// `tierwise-agent inspect TRACE [--json]`: exact workload summary of a trace
// (records, reads/writes, bytes, time span, working set, volumes).
#pragma once

#include <CLI/CLI.hpp>

namespace tierwise::cli {

void register_inspect_command(CLI::App& app);

}  // namespace tierwise::cli
