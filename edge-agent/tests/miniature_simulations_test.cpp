// Miniature simulations of the engine's eviction policies (cache/miniature_simulations.hpp):
// at full rate they are the engine's exact simulation; scaled down they count only their
// sample, in a tier of C x R_C blocks; they follow the agent's lower threshold in 7/8 steps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "cache/miniature_simulations.hpp"
#include "cache/policy_simulation.hpp"

namespace tierwise::cache {
namespace {

constexpr uint64_t kModulus = uint64_t{1} << 24;
constexpr uint64_t kBlock = MiniatureSimulations::kBlockBytes;

// A skewed stream of block hashes over `footprint` blocks: a few hot blocks, many cold.
std::vector<uint64_t> skewed_hashes(size_t count, uint64_t footprint, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<uint64_t> hot(0, footprint / 20), any(0, footprint - 1);
  std::bernoulli_distribution pick_hot(0.6);
  std::vector<uint64_t> out;
  for (size_t i = 0; i < count; ++i) {
    const uint64_t block = pick_hot(rng) ? hot(rng) : any(rng);
    out.push_back(block * 0x9e3779b97f4a7c15ULL);  // spread over every bit, as H(L) is
  }
  return out;
}

std::vector<MiniatureSimulations::SizeCounts> run(MiniatureSimulations& sims, const std::vector<uint64_t>& hashes,
                                                  size_t batch) {
  std::vector<MiniatureSimulations::SizeCounts> total;
  for (size_t start = 0; start < hashes.size(); start += batch) {
    std::vector<MiniatureSimulations::SizeCounts> counts;
    for (size_t i = start; i < std::min(hashes.size(), start + batch); ++i) sims.reference(hashes[i], i % 3 == 0);
    sims.take_counts(&counts);
    for (const auto& c : counts) {
      auto it = std::find_if(total.begin(), total.end(), [&](const auto& t) { return t.cache_bytes == c.cache_bytes; });
      if (it == total.end()) {
        total.push_back(c);
        continue;
      }
      it->references += c.references;
      it->read_references += c.read_references;
      for (size_t p = 0; p < c.misses.size(); ++p) {
        it->misses[p] += c.misses[p];
        it->read_misses[p] += c.read_misses[p];
      }
    }
  }
  return total;
}

TEST(MiniatureSimulations, AtFullRateEachPolicyMissesAsTheEngineDoes) {
  // Sizes of at most max_blocks blocks run at the agent's rate: here every reference.
  const std::vector<uint64_t> grid = {64 * kBlock, 256 * kBlock, 512 * kBlock};
  MiniatureSimulations sims(kModulus, kModulus, grid, 512);
  const std::vector<uint64_t> hashes = skewed_hashes(40'000, 4'000, 1);
  const auto total = run(sims, hashes, 997);  // batches do not reset the tiers
  ASSERT_EQ(total.size(), grid.size());
  for (size_t i = 0; i < grid.size(); ++i) {
    EXPECT_EQ(total[i].references, hashes.size());
    for (size_t p = 0; p < sims.policies().size(); ++p) {
      EXPECT_EQ(total[i].misses[p], simulate_misses(sims.policies()[p], grid[i] / kBlock, hashes))
          << eviction::policy_name(sims.policies()[p]) << " at " << grid[i] / kBlock << " blocks";
      EXPECT_LE(total[i].read_misses[p], total[i].misses[p]);
    }
  }
  // The policies differ where the tier is smaller than the footprint: the sizes mean something.
  EXPECT_NE(total[0].misses[0], total[0].misses[1]);
}

TEST(MiniatureSimulations, ALargerSizeSimulatesItsSampleInAScaledDownTier) {
  // 2,048 blocks with a bound of 512: T_C = P / 4, a tier of 512 blocks.
  MiniatureSimulations sims(kModulus, kModulus, {2048 * kBlock}, 512);
  const std::vector<uint64_t> hashes = skewed_hashes(20'000, 8'000, 2);
  std::vector<uint64_t> sampled;
  for (uint64_t h : hashes) {
    if (h % kModulus < kModulus / 4) sampled.push_back(h);
  }
  const auto total = run(sims, hashes, 5'000);
  ASSERT_EQ(total.size(), 1u);
  EXPECT_EQ(total[0].threshold, kModulus / 4);
  EXPECT_EQ(total[0].references, sampled.size());
  for (size_t p = 0; p < sims.policies().size(); ++p) {
    EXPECT_EQ(total[0].misses[p], simulate_misses(sims.policies()[p], 512, sampled));
  }
}

TEST(MiniatureSimulations, FollowsALowerAgentThresholdInSteps) {
  MiniatureSimulations sims(kModulus, kModulus, {256 * kBlock}, 512);
  const std::vector<uint64_t> hashes = skewed_hashes(10'000, 2'000, 3);
  run(sims, hashes, 10'000);
  sims.follow_agent_threshold(kModulus / 2);
  std::vector<MiniatureSimulations::SizeCounts> counts;
  for (uint64_t h : hashes) sims.reference(h, false);
  sims.take_counts(&counts);
  ASSERT_EQ(counts.size(), 1u);
  EXPECT_EQ(counts[0].threshold, kModulus / 2 / 8 * 7);
  size_t in_sample = 0;
  for (uint64_t h : hashes) in_sample += h % kModulus < counts[0].threshold ? 1 : 0;
  EXPECT_EQ(counts[0].references, in_sample);
  EXPECT_EQ(counts[0].read_references, in_sample);
  // A threshold at or above T_C changes nothing.
  sims.follow_agent_threshold(kModulus / 2);
  for (uint64_t h : hashes) sims.reference(h, true);
  counts.clear();
  sims.take_counts(&counts);
  EXPECT_EQ(counts[0].threshold, kModulus / 2 / 8 * 7);
  EXPECT_EQ(counts[0].read_references, 0u);
}

TEST(MiniatureSimulations, ReportsOnlySizesThatSawAReferenceSinceTheLastTake) {
  MiniatureSimulations sims(kModulus, kModulus);
  std::vector<MiniatureSimulations::SizeCounts> counts;
  sims.take_counts(&counts);
  EXPECT_TRUE(counts.empty());
  sims.reference(kModulus - 1, false);  // priority P - 1: only sizes at the full rate sample it
  sims.take_counts(&counts);
  EXPECT_TRUE(counts.empty()) << "the default grid's smallest size (4 MiB) runs at 1/2";
  sims.reference(0, false);  // priority 0: in every size's sample
  sims.take_counts(&counts);
  EXPECT_EQ(counts.size(), MiniatureSimulations::default_cache_bytes().size());
  EXPECT_EQ(counts.front().cache_bytes, uint64_t{4} << 20);
  EXPECT_EQ(counts.back().cache_bytes, uint64_t{64} << 30);
  counts.clear();
  sims.take_counts(&counts);
  EXPECT_TRUE(counts.empty());
}

TEST(MiniatureSimulations, APartsCountsAddUpToTheMergedStreams) {
  // Two volumes' references merged in one tier: each part counts its own, and the parts add up to
  // one simulation of the merged stream.
  const std::vector<uint64_t> grid = {128 * kBlock, 2048 * kBlock};
  MiniatureSimulations shared(kModulus, kModulus, grid, 512, /*parts=*/0);
  MiniatureSimulations merged(kModulus, kModulus, grid, 512);
  ASSERT_EQ(shared.add_part(), 0u);
  ASSERT_EQ(shared.add_part(), 1u);
  const std::vector<uint64_t> a = skewed_hashes(6'000, 1'500, 4), b = skewed_hashes(6'000, 3'000, 5);
  std::vector<MiniatureSimulations::SizeCounts> parts, whole;
  for (size_t i = 0; i < a.size(); ++i) {
    for (auto [hash, part] : {std::pair{a[i], size_t{0}}, std::pair{b[i] ^ (uint64_t{1} << 40), size_t{1}}}) {
      shared.reference(hash, false, part);
      merged.reference(hash, false);
    }
    if (i == 3'000) shared.take_counts(&parts, 1);  // a part takes its counts when it likes
  }
  shared.take_counts(&parts, 0);
  shared.take_counts(&parts, 1);
  merged.take_counts(&whole);
  ASSERT_EQ(whole.size(), grid.size());
  for (const auto& w : whole) {
    uint64_t references = 0;
    std::vector<uint64_t> misses(w.misses.size(), 0);
    for (const auto& p : parts) {
      if (p.cache_bytes != w.cache_bytes) continue;
      references += p.references;
      for (size_t k = 0; k < misses.size(); ++k) misses[k] += p.misses[k];
    }
    EXPECT_EQ(references, w.references);
    EXPECT_EQ(misses, w.misses) << w.cache_bytes;
  }
  EXPECT_THROW(shared.reference(0, false, 2), std::out_of_range);
}

TEST(MiniatureSimulations, APartsCountsComeOncePerThresholdTheyWereTakenAt) {
  MiniatureSimulations shared(kModulus, kModulus, {256 * kBlock}, 512, /*parts=*/2);
  shared.reference(5, false, 0);
  shared.follow_agent_threshold(kModulus / 2);  // another volume's sample filled
  shared.reference(7, true, 0);
  shared.reference(9, false, 0);
  std::vector<MiniatureSimulations::SizeCounts> counts;
  shared.take_counts(&counts, 0);
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_EQ(counts[0].threshold, kModulus);
  EXPECT_EQ(counts[0].references, 1u);
  EXPECT_EQ(counts[1].threshold, kModulus / 2 / 8 * 7);
  EXPECT_EQ(counts[1].references, 2u);
  EXPECT_EQ(counts[1].read_references, 1u);
  counts.clear();
  shared.take_counts(&counts, 1);
  EXPECT_TRUE(counts.empty());
}

TEST(MiniatureSimulations, RefusesImpossibleParameters) {
  EXPECT_THROW(MiniatureSimulations(0, 1), std::invalid_argument);
  EXPECT_THROW(MiniatureSimulations(kModulus, 0), std::invalid_argument);
  EXPECT_THROW(MiniatureSimulations(kModulus, kModulus + 1), std::invalid_argument);
  EXPECT_THROW(MiniatureSimulations(kModulus, kModulus, {8 * kBlock, 8 * kBlock}), std::invalid_argument);
  EXPECT_THROW(MiniatureSimulations(kModulus, kModulus, {100}), std::invalid_argument);
  EXPECT_THROW(MiniatureSimulations(kModulus, kModulus, {kBlock}, 0), std::invalid_argument);
  MiniatureSimulations sims(kModulus, kModulus);
  EXPECT_THROW(sims.follow_agent_threshold(0), std::invalid_argument);
}

}  // namespace
}  // namespace tierwise::cache
