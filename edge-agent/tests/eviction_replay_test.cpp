// Each volume's eviction policy through the replay (the real engine: io_uring
// datastore files + RAM tier, queue depth 32) on real traces: the hits equal
// those of the same policy fed the trace's block references one at a time, so
// --eviction selects the policy and deferred eviction keeps every policy exact
// while blocks are in flight. A small version of bench/eviction/compare.sh.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "cache/tier_index.hpp"
#include "replay/replay.hpp"
#include "test_support.hpp"
#include "trace/blocks.hpp"
#include "trace/trace_reader.hpp"

namespace tierwise {
namespace {

using cache::eviction::PolicyKind;

// Hits of `kind` over the trace's block references, one tier per volume.
uint64_t reference_hits(const std::string& path, PolicyKind kind, uint32_t tier_blocks) {
  std::map<std::string, cache::TierIndex> tiers;
  uint64_t hits = 0;
  auto reader = trace::open_trace(path);
  trace::IoRecord record;
  while (reader->next(record)) {
    auto it = tiers.find(record.volume);
    if (it == tiers.end()) {
      it = tiers.try_emplace(record.volume, tier_blocks, tier_blocks,
                             cache::eviction::make_policy(kind, tier_blocks)).first;
    }
    cache::TierIndex& index = it->second;
    const trace::BlockRange blocks = trace::blocks_touched(record);
    for (uint64_t b = blocks.first; b <= blocks.last; ++b) {
      const uint32_t slot = index.find(b);
      if (slot != cache::TierIndex::kNoSlot) {
        index.touch(slot);
        ++hits;
      } else {
        index.insert(b);
      }
    }
  }
  return hits;
}

struct Replayed {
  uint64_t hits = 0, misses = 0;
};

Replayed replay_with(const std::string& trace, PolicyKind kind, uint64_t tier_bytes) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("tierwise-eviction-replay-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  replay::ReplayOptions options;
  options.traces = {trace};
  options.dry_run = true;
  options.queue_depth = 32;
  options.eviction = kind;
  options.sequential_cutoff_bytes = 0;
  options.tier_bytes = tier_bytes;
  options.key_file = (dir / "agent.key").string();
  options.datastore_dir = (dir / "datastore").string();
  options.json_summary = (dir / "summary.json").string();
  ::testing::internal::CaptureStdout();
  const int code = replay::run_replay(options);
  ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(code, kExitOk);
  nlohmann::json summary;
  std::ifstream(options.json_summary) >> summary;
  EXPECT_EQ(summary["eviction"], std::string(cache::eviction::policy_name(kind)));
  Replayed r{summary["traces"][0]["hits"].get<uint64_t>(),
             summary["traces"][0]["misses"].get<uint64_t>()};
  std::filesystem::remove_all(dir);
  return r;
}

class EvictionReplay : public ::testing::TestWithParam<PolicyKind> {};

TEST_P(EvictionReplay, HitsEqualThePolicyFedBlockByBlockOnRealTraces) {
  // Tiers of about 5 % of each trace's working set (msr_hm_0: 1,917 blocks;
  // SYSTOR a: 9,831), where the policies differ most.
  for (const auto& [file, tier_blocks] :
       {std::pair<const char*, uint32_t>{"msr_hm_0_sample1000.csv", 95},
        std::pair<const char*, uint32_t>{"systor17_lun0_sample_a.csv.gz", 491}}) {
    const std::string trace = testing::trace_path(file);
    const Replayed r = replay_with(trace, GetParam(), uint64_t{tier_blocks} * 4096);
    EXPECT_EQ(r.hits, reference_hits(trace, GetParam(), tier_blocks)) << file;
    EXPECT_GT(r.misses, 0u) << file;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryPolicy, EvictionReplay,
                         ::testing::ValuesIn(cache::eviction::all_policies()),
                         [](const ::testing::TestParamInfo<PolicyKind>& info) {
                           const std::string name(cache::eviction::policy_name(info.param));
                           return name == "2q" ? std::string("twoq") : name;
                         });

TEST(EvictionReplayTest, ThePoliciesReallyDiffer) {
  // On msr_hm_0 at 95 blocks the four policies do not all hit alike: the
  // option reaches the engine.
  const std::string trace = testing::trace_path("msr_hm_0_sample1000.csv");
  const uint64_t lru = replay_with(trace, PolicyKind::kLru, 95 * 4096).hits;
  EXPECT_NE(replay_with(trace, PolicyKind::kS3Fifo, 95 * 4096).hits, lru);
  EXPECT_NE(replay_with(trace, PolicyKind::kArc, 95 * 4096).hits, lru);
}

}  // namespace
}  // namespace tierwise
