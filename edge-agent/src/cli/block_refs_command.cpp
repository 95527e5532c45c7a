#include "cli/block_refs_command.hpp"

#include <cstdio>
#include <memory>
#include <string>

#include "cli/exit_codes.hpp"
#include "cli/trace_input.hpp"
#include "trace/blocks.hpp"

namespace tierwise::cli {
namespace {

struct BlockRefsOptions {
  TraceArgument trace;
  std::string volume;
};

void run_block_refs(const BlockRefsOptions& options) {
  TraceInput input(options.trace);
  trace::IoRecord record;
  std::string first_volume;
  uint64_t references = 0;
  while (input.reader().next(record)) {
    if (!options.volume.empty()) {
      if (record.volume != options.volume) continue;
    } else if (first_volume.empty()) {
      first_volume = record.volume;
    } else if (record.volume != first_volume) {
      std::fprintf(stderr,
                   "tierwise-agent block-refs: the trace holds several volumes ('%s', '%s', ...); "
                   "choose one with --volume\n",
                   first_volume.c_str(), record.volume.c_str());
      throw CLI::RuntimeError(kExitUsage);
    }
    const trace::BlockRange blocks = trace::blocks_touched(record);
    for (uint64_t b = blocks.first; b <= blocks.last; ++b) {
      std::printf("%llu\n", static_cast<unsigned long long>(b));
      ++references;
    }
  }
  if (references == 0) {
    std::fprintf(stderr, "tierwise-agent block-refs: no I/O records%s\n",
                 options.volume.empty() ? "" : (" for volume '" + options.volume + "'").c_str());
    throw CLI::RuntimeError(kExitUsage);
  }
  std::fflush(stdout);
  input.finish();
}

}  // namespace

void register_block_refs_command(CLI::App& app) {
  auto options = std::make_shared<BlockRefsOptions>();
  CLI::App* command = app.add_subcommand(
      "block-refs",
      "Print the 4 KiB block numbers one volume references, in trace order, one per line "
      "(every block an I/O touches is one reference, as for the miss ratio curve). For "
      "cross-checking the engine against other cache simulators.");
  add_trace_argument(*command, options->trace);
  command->add_option("--volume", options->volume,
                      "Volume to print (required when the trace holds several)");
  command->callback([options] { run_block_refs(*options); });
}

}  // namespace tierwise::cli
