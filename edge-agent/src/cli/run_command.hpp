// `tierwise-agent run`: the long-running agent the installer starts (systemd
// unit or --no-systemd): reads agent.yaml, serves its volumes (serve's
// machinery) and reports its health with its credential, all to agent.yaml's
// gateway_url (docs/agent-gateway.md); with --replay, first replays traces
// into the gateway as this agent.
#pragma once

#include <CLI/CLI.hpp>

namespace tierwise::cli {

void register_run_command(CLI::App& app);

}  // namespace tierwise::cli
