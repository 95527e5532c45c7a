// tierwise-agent: the Tierwise edge agent's command line.
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli/block_refs_command.hpp"
#include "cli/import_vscsistats_command.hpp"
#include "cli/inspect_command.hpp"
#include "cli/mrc_command.hpp"
#include "cli/peer_command.hpp"
#include "cli/sample_refs_command.hpp"
#include "common/exit_code.hpp"
#include "common/version.hpp"
#include "trace/trace_error.hpp"
#ifdef TIERWISE_HAVE_REPLAY_COMMAND
#include "cli/replay_command.hpp"
#include "cli/send_spool_command.hpp"
#include "cli/serve_command.hpp"
#include "cli/run_command.hpp"
#include "cli/enroll_command.hpp"
#endif

namespace {

// CLI11 ends parsing with an exception: help/version (exit 0), a code set by a
// subcommand (CLI::RuntimeError), or a usage error, which prints its message
// and maps to kExitUsage.
int exit_code_for(const CLI::App& app, const CLI::ParseError& error) {
  int code = app.exit(error);
  if (code == 0 || error.get_name() == "RuntimeError") return code;
  return tierwise::kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Tierwise edge agent: reads block I/O traces, samples block references (SHARDS) and "
      "computes exact working sets and miss ratio curves.",
      "tierwise-agent"};
  app.set_version_flag("--version", tierwise::agent_version());
  app.require_subcommand(1);
  app.footer(
      "Exit codes: 0 ok; 1 failure; 2 usage error or unreadable trace; 3 finished, but the "
      "trace had malformed records (listed on stderr).");
  tierwise::cli::register_block_refs_command(app);
  tierwise::cli::register_inspect_command(app);
  tierwise::cli::register_import_vscsistats_command(app);
  tierwise::cli::register_mrc_command(app);
  tierwise::cli::register_sample_refs_command(app);
  tierwise::cli::register_peer_command(app);
#ifdef TIERWISE_HAVE_REPLAY_COMMAND
  tierwise::cli::register_replay_command(app);
  tierwise::cli::register_send_spool_command(app);
  tierwise::cli::register_serve_command(app);
  tierwise::cli::register_run_command(app);
  tierwise::cli::register_enroll_command(app);
#endif
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return exit_code_for(app, error);
  } catch (const tierwise::trace::TraceOpenError& error) {
    std::cerr << "tierwise-agent: " << error.what() << '\n';
    return tierwise::kExitUsage;
  } catch (const std::exception& error) {
    std::cerr << "tierwise-agent: error: " << error.what() << '\n';
    return tierwise::kExitFailure;
  }
  return tierwise::kExitOk;
}
