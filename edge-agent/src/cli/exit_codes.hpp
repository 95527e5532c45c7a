// Exit codes of tierwise-agent. A subcommand ends with a non-zero code by
// throwing CLI::RuntimeError(code) from its callback.
#pragma once

namespace tierwise::cli {

inline constexpr int kExitOk = 0;
// Unexpected failure (e.g. the output file cannot be written).
inline constexpr int kExitFailure = 1;
// Bad command line, or a trace that cannot be opened, recognised or read.
inline constexpr int kExitUsage = 2;
// The command finished, but the trace had malformed records (reported on
// stderr and skipped).
inline constexpr int kExitMalformedRecords = 3;

}  // namespace tierwise::cli
