#include "cli/mrc_command.hpp"

#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "analysis/exact_lru_mrc.hpp"
#include "cli/byte_size.hpp"
#include "cli/trace_input.hpp"
#include "trace/blocks.hpp"

namespace tierwise::cli {
namespace {

struct MrcOptions {
  TraceArgument trace;
  bool exact = false;
  std::vector<std::string> sizes;
  std::string volume;
};

// 16 MiB .. 2 GiB, doubling, with the half-steps in between (24, 48, 96 MiB, ...).
std::vector<uint64_t> default_cache_sizes() {
  std::vector<uint64_t> sizes;
  for (uint64_t bytes = uint64_t{16} << 20; bytes <= uint64_t{2} << 30; bytes *= 2) {
    sizes.push_back(bytes);
    if (bytes < uint64_t{2} << 30) sizes.push_back(bytes + bytes / 2);
  }
  return sizes;
}

void run_mrc(const MrcOptions& options) {
  std::vector<uint64_t> sizes = default_cache_sizes();
  if (!options.sizes.empty()) {
    sizes.clear();
    for (const std::string& text : options.sizes) sizes.push_back(*parse_byte_size(text));
  }
  TraceInput input(options.trace);
  VolumeChoice volume("mrc", options.volume);
  analysis::ExactLruMrc mrc;
  trace::IoRecord record;
  while (input.reader().next(record)) {
    if (!volume.keep(record)) continue;
    trace::BlockRange blocks = trace::blocks_touched(record);
    for (uint64_t block = blocks.first; block <= blocks.last; ++block) mrc.access(block);
  }
  volume.require_records(mrc.accesses());
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const analysis::MrcPoint& point : mrc.curve(sizes, trace::kBlockBytes)) {
    out.push_back({{"cache_bytes", point.cache_bytes}, {"miss_ratio", point.miss_ratio}});
  }
  std::cout << out.dump(2) << '\n';
  input.finish();
}

}  // namespace

void register_mrc_command(CLI::App& app) {
  auto options = std::make_shared<MrcOptions>();
  CLI::App* command = app.add_subcommand(
      "mrc",
      "Exact LRU miss ratio curve of one volume (Mattson stack distances over 4 KiB blocks; "
      "reads and writes both reference a block). Prints JSON [{cache_bytes, miss_ratio}].");
  add_trace_argument(*command, options->trace);
  command
      ->add_flag("--exact", options->exact,
                 "Compute the exact curve from every block reference (required: sampled curves "
                 "are computed by the service from `sample-refs` output)")
      ->required();
  command
      ->add_option("--sizes", options->sizes,
                   "Cache sizes, comma-separated, with B/KiB/MiB/GiB/TiB suffixes "
                   "(default: 16MiB..2GiB doubling, with half-steps)")
      ->delimiter(',')
      ->check(byte_size_validator());
  command->add_option("--volume", options->volume,
                      "Volume to analyse (required when the trace holds several)");
  command->callback([options] { run_mrc(*options); });
}

}  // namespace tierwise::cli
