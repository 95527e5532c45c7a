// LiveTelemetry, serve's telemetry hook: the I/Os it logs on the reactor
// thread are all recorded, in the interval in which they completed, whether
// the reactor's turns end often, seldom or never before the close.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "blockdev/ram_device.hpp"
#include "cache/cache_engine.hpp"
#include "serve/serve_telemetry.hpp"
#include "sampling/keyed_hash.hpp"
#include "sampling/shards_sampler.hpp"

namespace tierwise::serve {
namespace {

constexpr uint32_t kBlock = 4096;
constexpr int64_t kStartUs = 1'700'000'000'000'000;

class LiveTelemetryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(blockdev::RamDevice::create(1 << 20, &datastore_), 0);
    ASSERT_EQ(blockdev::RamDevice::create(1 << 20, &tier_), 0);
    ASSERT_EQ(cache::CacheEngine::create(*datastore_, *tier_, 1 << 20, &engine_), 0);
    telemetry_ = std::make_unique<LiveTelemetry>(LiveTelemetry::Options{"host", "", false, "test"},
                                                 std::vector<LiveTelemetry::VolumeSource>{{"vol", engine_.get()}},
                                                 hasher_, sampler_, nullptr, kStartUs);
  }

  // A completed 4 KiB I/O served by the tier (reads) or the datastore (writes).
  static cache::IoOutcome outcome(trace::Direction direction, int64_t completion_ns) {
    cache::IoOutcome o;
    o.direction = direction;
    o.length_bytes = kBlock;
    o.frontend_latency_ns = 3'000;
    o.completion_ns = completion_ns;
    (direction == trace::Direction::kRead ? o.cache : o.datastore) = {kBlock, 1'500};
    return o;
  }

  sampling::KeyedHasher hasher_{sampling::TenantKey{}};
  sampling::ShardsSampler sampler_{hasher_, 1.0};
  std::unique_ptr<blockdev::RamDevice> datastore_, tier_;
  std::unique_ptr<cache::CacheEngine> engine_;
  std::unique_ptr<LiveTelemetry> telemetry_;
};

TEST_F(LiveTelemetryTest, EveryLoggedIoIsRecordedWhateverTheTurns) {
  // More than three logs' worth, with a turn's end after every 10th I/O: the
  // log is recorded at the turns' ends and when it is full.
  const size_t reads = 3 * LiveTelemetry::kLogCapacity + 7;
  for (size_t i = 0; i < reads; ++i) {
    telemetry_->on_io(0, (i % 256) * kBlock, outcome(trace::Direction::kRead, static_cast<int64_t>(i) * 1000));
    if (i % 10 == 9) telemetry_->on_turn_end();
  }
  std::vector<IntervalLine> lines = telemetry_->close_interval(kStartUs + 1'000'000);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].reads, reads);
  EXPECT_EQ(lines[0].writes, 0u);

  // No turn ends at all before the next close: the close records the log, and
  // these I/Os count in this interval, not the last one.
  for (int i = 0; i < 5; ++i) {
    telemetry_->on_io(0, 0, outcome(trace::Direction::kWrite, 2'000'000'000 + i));
  }
  lines = telemetry_->close_interval(kStartUs + 2'000'000);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].reads, 0u);
  EXPECT_EQ(lines[0].writes, 5u);

  // Logged after the last close: finish() records them and flushes the
  // reference batches (rate 1: every block is sampled).
  telemetry_->on_io(0, kBlock, outcome(trace::Direction::kRead, 3'000'000'000));
  lines = telemetry_->finish(kStartUs + 3'000'000);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].reads, 1u);
  EXPECT_EQ(telemetry_->metric_requests(), 3u);
  EXPECT_GE(telemetry_->reference_batches(), 1u);
}

}  // namespace
}  // namespace tierwise::serve
