// `tierwise-agent run`: the long-running agent the installer starts (systemd
// unit or --no-systemd): reads agent.yaml, serves its volumes (serve's
// machinery) and reports its health to the api with its credential; with
// --replay, first replays traces into ingest as this agent.
#pragma once

#include <CLI/CLI.hpp>

namespace tierwise::cli {

void register_run_command(CLI::App& app);

}  // namespace tierwise::cli
