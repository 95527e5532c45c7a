// `tierwise-agent replay`: replays block traces through the cache engine,
// collects telemetry, samples references and exports them to ingest.
#pragma once

#include "common/exit_code.hpp"
#include "replay/replay_options.hpp"

namespace tierwise::replay {

// Runs the replay described by `options`: every trace in turn, then waits for
// the export queue to drain, prints the human summary on stdout (progress and
// problems go to stderr) and writes the JSON summary when asked.
// Returns an ExitCode (common/exit_code.hpp): kExitFailure when the datastore failed, else
// kExitUsage when a trace could not be opened or read, else
// kExitRejected when ingest rejected batches, else
// kExitUndelivered when batches could not be delivered, else kExitMalformed
// when malformed records were skipped, else kExitOk.
// Throws std::invalid_argument for invalid options (naming the option) and
// std::runtime_error when the replay cannot start (key file, datastore
// directory, io_uring).
int run_replay(const ReplayOptions& options);

}  // namespace tierwise::replay
