// Power-loss simulation of the cache engine (docs/write-back.md "Power-loss
// testing"): a workload over the engine on two PowerLossDevices, power cut at
// every flush boundary of short runs and at random points of longer ones, the
// volume recovered and every block checked.
//
// Every failing case prints one line, `seed=... cut_after_op=... profile=...`;
// TIERWISE_PLSIM_CASE='<that line>' replays it alone (ReplayOneCase).
// TIERWISE_PLSIM_POINTS (default 1000) sets the number of random cut points,
// TIERWISE_PLSIM_SEED their base seed (default: random, printed), and
// TIERWISE_PLSIM_VERBOSE=1 prints every case.
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "power_loss_harness.hpp"
#include "power_loss_sweep.hpp"

namespace tierwise::test::plsim {
namespace {

TEST(PowerLoss, RunsReplayExactlyFromTheirSeed) {
  for (const char* name : {"write-back", "write-back-switching", "write-through"}) {
    const Profile p = profile_named(name);
    const Result a = run_case(p, Case{5, {}, 0});
    const Result b = run_case(p, Case{5, {}, 0});
    ASSERT_TRUE(a.failures.empty()) << a.failures.front();
    EXPECT_EQ(a.digest, b.digest) << name;
    EXPECT_EQ(a.phase_steps, b.phase_steps) << name;
    EXPECT_EQ(a.flush_steps, b.flush_steps) << name;
    EXPECT_NE(run_case(p, Case{6, {}, 0}).digest, a.digest) << name;
  }
  Profile p;
  Case c;
  ASSERT_TRUE(parse_case("seed=9 cut_after_op=12,40 profile=write-through ops=77 qd=3 hot=5 "
                         "recovery_cut=2",
                         &p, &c));
  EXPECT_EQ(c.describe(p), "seed=9 cut_after_op=12,40 profile=write-through ops=77 qd=3 hot=5 "
                           "recovery_cut=2");
  EXPECT_FALSE(p.write_back);
}

TEST(PowerLoss, WriteBackSurvivesACutAtEveryFlushBoundary) {
  Sweep sweep;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    sweep_flush_boundaries(profile_named("write-back"), seed, &sweep);
  }
  expect_clean(sweep, "write-back, every flush boundary of seeds 1-8");
  EXPECT_GT(sweep.stats.records_applied, 0u) << "no cut left a journal to recover";
  EXPECT_GT(sweep.stats.torn_records_ignored, 0u) << "no cut left a torn record";
  EXPECT_GT(sweep.stats.torn_writes, 0u);
}

// Live switches under I/O, at queue depths and hot sets that make writes
// meet destages of their blocks (the two orderings of docs/write-back.md
// "Ordering of destages and writes of one block": with either fix reverted
// this test fails).
TEST(PowerLoss, WriteBackWithLiveSwitchesSurvivesACutAtEveryFlushBoundary) {
  Sweep sweep;
  static constexpr uint32_t kDepth[] = {8, 16, 16, 32}, kHot[] = {16, 4, 8, 4};
  for (uint64_t seed = 1; seed <= 16; ++seed) {
    Profile p = profile_named("write-back-switching");
    p.queue_depth = kDepth[seed % 4];
    p.hot_blocks = kHot[seed % 4];
    sweep_flush_boundaries(p, seed, &sweep);
  }
  expect_clean(sweep, "write-back with live switches, every flush boundary of seeds 1-16");
}

TEST(PowerLoss, WriteThroughDatastoreSurvivesACutAtEveryFlushBoundary) {
  Sweep sweep;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    sweep_flush_boundaries(profile_named("write-through"), seed, &sweep);
  }
  expect_clean(sweep, "write-through, every flush boundary of seeds 1-8");
}

// A second power cut during the recovery of the first, after each of its
// first 12 device completions.
TEST(PowerLoss, ACutDuringRecoveryIsRecoveredToo) {
  const Profile p = profile_named("write-back");
  Sweep sweep;
  for (uint64_t seed = 7; seed <= 8; ++seed) {
    const Result recorded = run_case(p, Case{seed, {}, 0});
    ASSERT_TRUE(recorded.failures.empty());
    const auto boundaries = flush_boundaries(recorded);
    for (size_t i = 0; i < boundaries.size(); i += std::max<size_t>(1, boundaries.size() / 16)) {
      for (uint64_t r = 1; r <= 12; ++r) sweep.run(p, Case{seed, {boundaries[i]}, r});
    }
  }
  expect_clean(sweep, "write-back, cuts during recovery (seeds 7-8)");
}

// A recovered volume runs on and loses power again: the second phase's first
// steps (new records over the ring a recovery left) at every fifth step.
TEST(PowerLoss, ARecoveredVolumeSurvivesTheNextCut) {
  const Profile p = profile_named("write-back");
  Sweep sweep;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    const Result recorded = run_case(p, Case{seed, {}, 0});
    ASSERT_TRUE(recorded.failures.empty());
    const auto boundaries = flush_boundaries(recorded);
    for (size_t i = 0; i < boundaries.size(); i += std::max<size_t>(1, boundaries.size() / 8)) {
      for (uint64_t second = 1; second <= 150; second += 5) {
        sweep.run(p, Case{seed, {boundaries[i], second}, 0});
      }
    }
  }
  expect_clean(sweep, "write-back, a second cut after recovery (seeds 1-3)");
}

// Longer runs in two phases (cut, recover, go on, cut again) at random points,
// with random queue depths and hot sets.
TEST(PowerLoss, RandomCutsOfLongerRuns) {
  const uint64_t points = env_u64("TIERWISE_PLSIM_POINTS", 1000);
  const uint64_t base = env_u64("TIERWISE_PLSIM_SEED", std::random_device{}());
  std::cout << "random cut points from seed " << base << " (TIERWISE_PLSIM_SEED=" << base
            << " repeats them)\n";
  std::mt19937_64 rng(base);
  static const char* const kProfiles[] = {"write-back", "write-back", "write-back-switching",
                                          "write-through"};
  Sweep sweep;
  for (uint64_t i = 0; i < points; ++i) {
    Profile p = profile_named(kProfiles[i % 4]);
    p.ops = 600;
    p.queue_depth = 1 + static_cast<uint32_t>(rng() % 32);
    p.hot_blocks = 1 + static_cast<uint32_t>(rng() % 32);
    const uint64_t seed = rng();
    const Result recorded = run_case(p, Case{seed, {}, 0});
    ASSERT_TRUE(recorded.failures.empty()) << Case{seed, {}, 0}.describe(p) << ": "
                                           << recorded.failures.front();
    const uint64_t n = recorded.phase_steps;
    sweep.run(p, Case{seed, {1 + rng() % n, 1 + rng() % n}, i % 4 == 1 ? 1 + rng() % 12 : 0});
  }
  expect_clean(sweep, "random cuts of longer runs");
}

// The planted bugs (power_loss_planted.hpp): a harness that cannot fail proves nothing.
TEST(PowerLossPlanted, ATierThatDropsFlushesLosesAcknowledgedWritesAndIsCaught) {
  Sweep sweep;
  sweep.quiet = true;
  sweep_flush_boundaries(profile_named("write-back-lying-tier"), 1, &sweep);
  std::cout << sweep.summary("planted: the tier acknowledges flushes it drops") << '\n';
  ASSERT_FALSE(sweep.failures.empty())
      << "the harness missed acknowledged writes that were never durable";
  // The harness's own check, not only the engine's -EIO for a torn flushed record.
  EXPECT_TRUE(sweep.any_failure_says("was acknowledged and durable") ||
              sweep.any_failure_says("older than acknowledged durable"))
      << sweep.failures.front();
}

TEST(PowerLossPlanted, ADatastoreThatDropsFlushesIsCaught) {
  for (const char* name : {"write-through-lying-datastore", "write-back-lying-datastore"}) {
    Sweep sweep;
    sweep.quiet = true;
    sweep_flush_boundaries(profile_named(name), 1, &sweep);
    std::cout << sweep.summary(std::string("planted: ") + name) << '\n';
    EXPECT_FALSE(sweep.failures.empty()) << name << ": the harness missed the dropped flushes";
    EXPECT_TRUE(sweep.any_failure_says("acknowledged")) << name;
  }
}

// Replays the case a failure printed: TIERWISE_PLSIM_CASE='seed=... cut_after_op=...'.
TEST(PowerLoss, ReplayOneCase) {
  const char* line = std::getenv("TIERWISE_PLSIM_CASE");
  if (line == nullptr) GTEST_SKIP() << "set TIERWISE_PLSIM_CASE to a line a failure printed";
  Profile p;
  Case c;
  ASSERT_TRUE(parse_case(line, &p, &c)) << line;
  const Result r = run_case(p, c);
  std::cout << c.describe(p) << ": " << r.stats.cuts << " power cuts, "
            << r.stats.acked_writes << " acknowledged writes\n";
  for (const auto& f : r.failures) std::cout << "    " << f << '\n';
  EXPECT_TRUE(r.failures.empty());
}

}  // namespace
}  // namespace tierwise::test::plsim
