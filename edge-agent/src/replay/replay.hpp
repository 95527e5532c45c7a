// `tierwise-agent replay`: replays block traces through the cache engine,
// collects telemetry, samples references and exports them to ingest.
#pragma once

#include "replay/replay_options.hpp"

namespace tierwise::replay {

// Agent version reported as service.version.
const char* agent_version();

// Runs the replay described by `options`: every trace in turn, then waits for
// the export queue to drain, prints the human summary on stdout (progress and
// problems go to stderr) and writes the JSON summary when asked.
// Returns an ExitCode: kExitFailure when the datastore failed, else
// kExitUnreadable when a trace could not be opened or read, else
// kExitRejected when ingest rejected batches, else
// kExitUndelivered when batches could not be delivered, else kExitMalformed
// when malformed records were skipped, else kExitOk.
// Throws std::invalid_argument for invalid options (naming the option) and
// std::runtime_error when the replay cannot start (key file, datastore
// directory, io_uring).
int run_replay(const ReplayOptions& options);

}  // namespace tierwise::replay
