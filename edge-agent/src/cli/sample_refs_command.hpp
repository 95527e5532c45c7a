// `tierwise-agent sample-refs TRACE --out FILE [--key HEX32 | --key-file PATH]
// [--rate R] [--host NAME]`: writes the tierwise.v1.ReferenceBatch messages
// the agent would ship for a trace, as a length-delimited stream.
#pragma once

#include <CLI/CLI.hpp>

namespace tierwise::cli {

void register_sample_refs_command(CLI::App& app);

}  // namespace tierwise::cli
