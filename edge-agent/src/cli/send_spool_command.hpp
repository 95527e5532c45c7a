// `tierwise-agent send-spool`: sends the batches a replay left in the disk
// spool (ingest was unreachable), in order, without replaying anything.
#pragma once

#include <CLI/CLI.hpp>

namespace tierwise::cli {

// Registers the subcommand. Exit codes as replay: 0 spool empty; 4 ingest
// rejected spooled batches; 5 batches still spooled after --drain-timeout.
void register_send_spool_command(CLI::App& app);

}  // namespace tierwise::cli
