// The `replay` subcommand (owned by the cache/telemetry engineer): replays a
// trace through the cache engine and exports telemetry.
//
// Build hook: src/cli/CMakeLists.txt compiles replay_command.cpp into
// tierwise-agent when the file exists, links the `tierwise_replay` library and
// defines TIERWISE_HAVE_REPLAY_COMMAND, which makes main() call this function.
#pragma once

#include <CLI/CLI.hpp>

namespace tierwise::cli {

// Adds the `replay` subcommand to `app`. Its callback ends the program with a
// non-zero code by throwing CLI::RuntimeError(code) (common/exit_code.hpp).
void register_replay_command(CLI::App& app);

}  // namespace tierwise::cli
