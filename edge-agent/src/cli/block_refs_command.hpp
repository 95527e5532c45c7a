// `tierwise-agent block-refs TRACE [--volume NAME]`: the 4 KiB block reference
// stream of one volume, one block number per line (the plain-text trace of
// cache simulators such as libCacheSim's `txt` reader).
#pragma once

#include <CLI/CLI.hpp>

namespace tierwise::cli {

void register_block_refs_command(CLI::App& app);

}  // namespace tierwise::cli
