// `tierwise-agent mrc TRACE --exact [--eviction POLICY] [--sizes ...] [--volume NAME]`:
// the exact miss ratio curve of one volume under an eviction policy (LRU by
// default: Mattson stack distances; any other: the engine's policy simulated
// at each size), as JSON [{cache_bytes, miss_ratio}].
#pragma once

#include <CLI/CLI.hpp>

namespace tierwise::cli {

void register_mrc_command(CLI::App& app);

}  // namespace tierwise::cli
