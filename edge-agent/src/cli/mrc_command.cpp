#include "cli/mrc_command.hpp"

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "analysis/exact_lru_mrc.hpp"
#include "cache/eviction/eviction_policy.hpp"
#include "cache/policy_simulation.hpp"
#include "serve/byte_size.hpp"
#include "cli/trace_input.hpp"
#include "trace/blocks.hpp"

namespace tierwise::cli {
namespace {

struct MrcOptions {
  TraceArgument trace;
  bool exact = false;
  std::vector<std::string> sizes;
  std::string volume;
  bool shared_tier = false;
  std::string eviction = "lru";
};

// Which records a curve is of, and the key of each of their 4 KiB blocks: the chosen volume's
// block numbers, or with --shared-tier every volume's blocks in one address space, as on a host
// whose tier device its volumes share (volume i, in order of first appearance, keys its block b
// as i * 2^44 + b: 2^44 blocks are 64 PiB, more than any volume).
class BlockKeys {
 public:
  explicit BlockKeys(const MrcOptions& options) : volume_("mrc", options.volume), shared_(options.shared_tier) {}

  // Whether `record` counts; afterwards key() keys its blocks.
  bool keep(const trace::IoRecord& record) {
    if (!shared_) return volume_.keep(record);
    if (record.volume != last_volume_) {
      last_volume_ = record.volume;
      base_ = bases_.try_emplace(record.volume, bases_.size() << kVolumeShift).first->second;
    }
    return true;
  }
  uint64_t key(uint64_t block) const { return base_ | block; }
  void require_records(uint64_t kept) const { volume_.require_records(kept); }

 private:
  static constexpr int kVolumeShift = 44;
  VolumeChoice volume_;
  bool shared_;
  std::unordered_map<std::string, uint64_t> bases_;
  std::string last_volume_;
  uint64_t base_ = 0;
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

// A byte size of at least one 4 KiB block (the smallest tier the engine holds).
CLI::Validator whole_block_validator() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const std::optional<uint64_t> bytes = serve::parse_byte_size(text);
        if (bytes && *bytes < trace::kBlockBytes) {
          return "cache size " + text + " is below one 4 KiB block (4096 bytes), the smallest cache";
        }
        return "";
      },
      "");
}

// Every 4 KiB block reference of the chosen volume (or volumes), reads and writes, in trace order.
std::vector<uint64_t> block_references(TraceInput& input, BlockKeys& volume) {
  std::vector<uint64_t> refs;
  trace::IoRecord record;
  while (input.reader().next(record)) {
    if (!volume.keep(record)) continue;
    const trace::BlockRange blocks = trace::blocks_touched(record);
    for (uint64_t block = blocks.first; block <= blocks.last; ++block) refs.push_back(volume.key(block));
  }
  return refs;
}

// LRU: Mattson's stack distances, one pass for every size.
std::vector<analysis::MrcPoint> exact_lru_curve(TraceInput& input, BlockKeys& volume,
                                                const std::vector<uint64_t>& sizes) {
  analysis::ExactLruMrc mrc;
  trace::IoRecord record;
  while (input.reader().next(record)) {
    if (!volume.keep(record)) continue;
    trace::BlockRange blocks = trace::blocks_touched(record);
    for (uint64_t block = blocks.first; block <= blocks.last; ++block) mrc.access(volume.key(block));
  }
  volume.require_records(mrc.accesses());
  return mrc.curve(sizes, trace::kBlockBytes);
}

// Any other policy: the engine's decisions simulated at each size.
std::vector<analysis::MrcPoint> simulated_curve(TraceInput& input, BlockKeys& volume,
                                                const std::vector<uint64_t>& sizes,
                                                cache::eviction::PolicyKind kind) {
  const std::vector<uint64_t> refs = block_references(input, volume);
  volume.require_records(refs.size());
  std::vector<analysis::MrcPoint> points;
  for (const uint64_t bytes : sizes) {
    const uint64_t misses = cache::simulate_misses(kind, bytes / trace::kBlockBytes, refs);
    points.push_back({bytes, static_cast<double>(misses) / static_cast<double>(refs.size())});
  }
  return points;
}

void run_mrc(const MrcOptions& options) {
  std::vector<uint64_t> sizes = default_cache_sizes();
  if (!options.sizes.empty()) {
    sizes.clear();
    for (const std::string& text : options.sizes) sizes.push_back(*serve::parse_byte_size(text));
  }
  const cache::eviction::PolicyKind kind = *cache::eviction::parse_policy(options.eviction);  // IsMember
  TraceInput input(options.trace);
  BlockKeys volume(options);
  const std::vector<analysis::MrcPoint> curve = kind == cache::eviction::PolicyKind::kLru
                                                    ? exact_lru_curve(input, volume, sizes)
                                                    : simulated_curve(input, volume, sizes, kind);
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const analysis::MrcPoint& point : curve) {
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
      "Exact miss ratio curve of one volume over every 4 KiB block reference (reads and writes "
      "both reference a block). LRU (the default): Mattson stack distances, one pass. Any other "
      "--eviction policy: the engine's own policy simulated at each cache size, the references in "
      "trace order, one at a time (queue depth 1), a miss admitting the block, sequential cut-off "
      "off. Prints JSON [{cache_bytes, miss_ratio}], miss_ratio = misses / references.");
  add_trace_argument(*command, options->trace);
  command
      ->add_flag("--exact", options->exact,
                 "Compute the exact curve from every block reference (required: sampled curves "
                 "are computed by the service from `sample-refs` output)")
      ->required();
  command
      ->add_option("--sizes", options->sizes,
                   "Cache sizes, comma-separated, with B/KiB/MiB/GiB/TiB suffixes, each at least "
                   "4KiB and taken in whole 4 KiB blocks (rounded down; cache_bytes echoes the size "
                   "given) (default: 16MiB..2GiB doubling, with half-steps)")
      ->delimiter(',')
      ->check(serve::byte_size_validator() & whole_block_validator());
  command
      ->add_option("--eviction", options->eviction,
                   "Eviction policy of the curve: lru (Mattson et al. 1970), s3fifo (Yang et al., "
                   "SOSP 2023), arc (Megiddo & Modha, FAST 2003), 2q (Johnson & Shasha, VLDB 1994) "
                   "or sieve (Zhang et al., NSDI 2024); docs/eviction.md")
      ->check(CLI::IsMember(cache::eviction::policy_names()))
      ->capture_default_str();
  CLI::Option* volume = command->add_option("--volume", options->volume,
                                            "Volume to analyse (required when the trace holds several)");
  command
      ->add_flag("--shared-tier", options->shared_tier,
                 "Every volume of the trace in one tier, as on a host whose tier device they share "
                 "(each volume's blocks kept apart from the others')")
      ->excludes(volume);
  command->callback([options] { run_mrc(*options); });
}

}  // namespace tierwise::cli
