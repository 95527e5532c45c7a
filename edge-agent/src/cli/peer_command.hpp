// `tierwise-agent peer --listen HOST:PORT [--port-file FILE]`: runs a replica
// peer for other agents' write-back volumes (WB+n) until SIGINT or SIGTERM.
#pragma once

#include <CLI/CLI.hpp>

namespace tierwise::cli {

void register_peer_command(CLI::App& app);

}  // namespace tierwise::cli
