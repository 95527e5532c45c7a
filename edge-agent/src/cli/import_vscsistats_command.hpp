// `tierwise-agent import-vscsistats FILE`: sends the histograms of VMware
// `vscsiStats -p all -c` output (hosts that cannot run the agent: ESXi) as
// one volume per virtual disk through the normal telemetry path.
#pragma once

#include <CLI/CLI.hpp>

namespace tierwise::cli {

void register_import_vscsistats_command(CLI::App& app);

}  // namespace tierwise::cli
