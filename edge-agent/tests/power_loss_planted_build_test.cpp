// The power-loss harness against a deliberately broken build of the cache
// engine (docs/write-back.md "Power-loss testing"): compiled with
// TIERWISE_PLANTED_ACK_WITHOUT_FLUSH, write-back acknowledges a group of
// journal records without the tier flush that makes them durable. The harness
// must report acknowledged writes lost; if it does not, it proves nothing.
#include <gtest/gtest.h>

#include "power_loss_harness.hpp"
#include "power_loss_sweep.hpp"

namespace tierwise::test::plsim {
namespace {

TEST(PowerLossPlantedBuild, AnEngineThatAcknowledgesBeforeItsFlushIsCaught) {
  Sweep sweep;
  sweep.quiet = true;
  for (uint64_t seed = 1; seed <= 2; ++seed) sweep_flush_boundaries(profile_named("write-back"), seed, &sweep);
  std::cout << sweep.summary("planted build: acknowledged before the group commit's flush") << '\n';
  ASSERT_FALSE(sweep.failures.empty()) << "the harness missed acknowledged writes that were never flushed";
  EXPECT_TRUE(sweep.any_failure_says("was acknowledged and durable") ||
              sweep.any_failure_says("older than acknowledged durable"))
      << sweep.failures.front();
}

}  // namespace
}  // namespace tierwise::test::plsim
