// `tierwise-agent enroll`: exchanges a one-time enrollment token for this
// agent's credential (POST /v1/agents/enroll at agent.yaml's gateway_url),
// written to the credential file of agent.yaml with mode 0600. Called by
// install.sh.
#pragma once

#include <CLI/CLI.hpp>

namespace tierwise::cli {

void register_enroll_command(CLI::App& app);

}  // namespace tierwise::cli
