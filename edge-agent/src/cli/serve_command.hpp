// `tierwise-agent serve`: serve volumes over NBD through the cache engine.
#pragma once

#include <CLI/CLI.hpp>

namespace tierwise::cli {

// Adds the `serve` subcommand to `app`.
void register_serve_command(CLI::App& app);

}  // namespace tierwise::cli
