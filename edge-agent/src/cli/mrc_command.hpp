// `tierwise-agent mrc TRACE --exact [--sizes ...] [--volume NAME]`: the exact
// LRU miss ratio curve of one volume, as JSON [{cache_bytes, miss_ratio}].
#pragma once

#include <CLI/CLI.hpp>

namespace tierwise::cli {

void register_mrc_command(CLI::App& app);

}  // namespace tierwise::cli
