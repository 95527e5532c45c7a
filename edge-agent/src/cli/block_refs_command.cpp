#include "cli/block_refs_command.hpp"

#include <cstdio>
#include <memory>
#include <string>

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
  VolumeChoice volume("block-refs", options.volume);
  trace::IoRecord record;
  uint64_t references = 0;
  while (input.reader().next(record)) {
    if (!volume.keep(record)) continue;
    const trace::BlockRange blocks = trace::blocks_touched(record);
    for (uint64_t b = blocks.first; b <= blocks.last; ++b) {
      std::printf("%llu\n", static_cast<unsigned long long>(b));
      ++references;
    }
  }
  std::fflush(stdout);
  volume.require_records(references);
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
