// Tier failure (docs/write-back.md "Tier failure"): the first tier I/O error
// disables the tier; write-through I/Os are served from the datastore,
// write-back volumes get their journal onto the datastore from a peer first.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "blockdev/ram_device.hpp"
#include "writeback_volume.hpp"

namespace tierwise::cache {
namespace {

using namespace test;  // NOLINT: the shared volume, fixtures and constants
using replication::LeaseRecord;

bool any_event(const std::vector<std::string>& events, const std::string& what) {
  return std::any_of(events.begin(), events.end(),
                     [&](const std::string& e) { return e.find(what) != std::string::npos; });
}

// Submits one I/O to an engine over RAM devices (completions run inline).
IoOutcome io(CacheEngine& engine, Direction direction, uint64_t offset, std::vector<std::byte>* bytes) {
  auto buf = blockdev::allocate_aligned(bytes->size(), 4096);
  std::memcpy(buf.get(), bytes->data(), bytes->size());
  Volume::Done d;
  EXPECT_EQ(engine.submit(direction, offset, static_cast<uint32_t>(bytes->size()), buf.get(), Volume::on_done, &d), 0);
  EXPECT_TRUE(d.done);
  std::memcpy(bytes->data(), buf.get(), bytes->size());
  return d.outcome;
}

TEST(TierFailure, AWriteThroughHitWhoseTierReadFailsIsServedFromTheDatastore) {
  std::unique_ptr<blockdev::RamDevice> datastore, ram;
  ASSERT_EQ(blockdev::RamDevice::create(64 * kBlock, &datastore), 0);
  ASSERT_EQ(blockdev::RamDevice::create(16 * kBlock, &ram), 0);
  FailingDevice tier(*ram);
  std::unique_ptr<CacheEngine> engine;
  ASSERT_EQ(CacheEngine::create(*datastore, tier, 16 * kBlock, &engine), 0);
  std::vector<std::string> events;
  engine->set_on_event([&](std::string_view e) { events.emplace_back(e); });

  std::vector<std::byte> first = pattern(1, kBlock);
  ASSERT_EQ(io(*engine, Direction::kWrite, 0, &first).status, 0);
  std::vector<std::byte> got(kBlock);
  ASSERT_EQ(io(*engine, Direction::kRead, 0, &got).cache.bytes, kBlock) << "a hit before the failure";

  tier.fail();
  std::fill(got.begin(), got.end(), std::byte{0});
  const IoOutcome hit = io(*engine, Direction::kRead, 0, &got);
  EXPECT_EQ(hit.status, 0) << "the client saw the tier's error";
  EXPECT_EQ(got, pattern(1, kBlock));
  EXPECT_EQ(hit.datastore.bytes, kBlock);
  EXPECT_EQ(engine->counters().tier_errors, 1u);
  EXPECT_TRUE(engine->counters().tier_disabled);
  EXPECT_TRUE(any_event(events, "tier failed (Input/output error in a read)")) << events.size();

  // From now on the tier is never touched: writes and reads go to the datastore.
  std::vector<std::byte> second = pattern(2, 2 * kBlock);
  EXPECT_EQ(io(*engine, Direction::kWrite, kBlock, &second).status, 0);
  std::vector<std::byte> back(2 * kBlock);
  EXPECT_EQ(io(*engine, Direction::kRead, kBlock, &back).status, 0);
  EXPECT_EQ(back, pattern(2, 2 * kBlock));
  EXPECT_EQ(tier.failed_requests(), 1u) << "the disabled tier was used again";
  EXPECT_EQ(engine->counters().occupancy_bytes, 0u);
}

using TierFailureTest = OwnerWithPeerTest;

// WB+1: acknowledged writes are dirty on the tier and on the peer when the
// tier dies. The peer destages them, the volume goes on write-through without
// the tier, nothing acknowledged is lost, and the failed tier's journal is
// fenced: a restart on it does not replay its records over newer writes.
TEST_F(TierFailureTest, APeerDestagesTheJournalAndTheVolumeGoesOnWithoutItsTier) {
  std::vector<std::byte> want(16 * kBlock);
  {
    Volume v(dir_);
    ASSERT_NO_FATAL_FAILURE(start_owner(v));  // the destager never runs (kNoDestage)
    for (uint64_t b = 0; b < 8; ++b) {
      ASSERT_EQ(v.write(b * kBlock, pattern(b + 1, kBlock)), 0);
      const std::vector<std::byte> p = pattern(b + 1, kBlock);
      std::copy(p.begin(), p.end(), want.begin() + static_cast<ptrdiff_t>(b * kBlock));
    }
    ASSERT_EQ(v.write(2 * kBlock + 512, pattern(20, 1024)), 0);  // over part of block 2
    const std::vector<std::byte> part = pattern(20, 1024);
    std::copy(part.begin(), part.end(), want.begin() + 2 * kBlock + 512);
    EXPECT_EQ(v.datastore_bytes(0, 8 * kBlock), std::vector<std::byte>(8 * kBlock)) << "destaged already";
    // A write in flight when the tier dies is served again from the datastore.
    std::vector<std::byte> late = pattern(30, 2 * kBlock);
    blockdev::AlignedBytes late_buf;
    Volume::Done late_done;
    v.start_write(10 * kBlock, late, &late_buf, &late_done);
    std::copy(late.begin(), late.end(), want.begin() + 10 * kBlock);

    v.fail_tier();
    EXPECT_EQ(v.read(2 * kBlock, kBlock), std::vector<std::byte>(want.begin() + 2 * kBlock,
                                                                  want.begin() + 3 * kBlock))
        << "a dirty block read after the tier failed";
    ASSERT_TRUE(v.pump_until([&] { return late_done.done; }));
    EXPECT_EQ(late_done.status, 0) << "the client saw the tier's error";
    EXPECT_EQ(v.datastore_bytes(0, 16 * kBlock), want) << "an acknowledged write is not on the datastore";
    const CacheCounters& c = v.engine->counters();
    EXPECT_TRUE(c.tier_disabled);
    EXPECT_EQ(c.fallbacks, 1u) << "a write-back volume that runs write-through now fell back";
    EXPECT_EQ(c.dirty_bytes, 0u);
    EXPECT_EQ(v.engine->mode(), CacheMode::kWriteThrough);
    EXPECT_EQ(v.engine->set_mode(CacheMode::kWriteBack), -EIO) << "write-back without a tier";
    EXPECT_TRUE(any_event(v.events, "the peer destaged records 1..")) << v.events.back();
    EXPECT_TRUE(any_event(v.events, "tier disabled: the journal is on the datastore (epoch 2)"));
    EXPECT_TRUE(event_says("for its owner, whose tier failed"));
    EXPECT_EQ(lease_at(lease_path()).epoch, 2u);
    EXPECT_TRUE(wait_for([&] { return peer->held_records(kVolumeId) == 0; })) << "the peer kept the trimmed records";

    // Newer data after the failure, straight to the datastore.
    ASSERT_EQ(v.write(0, pattern(40, kBlock)), 0);
    EXPECT_EQ(v.datastore_bytes(0, kBlock), pattern(40, kBlock));
    EXPECT_EQ(v.read(0, kBlock), pattern(40, kBlock));
    kill_owner(v);
  }
  // The tier works again (or an operator restarts on it): its journal of
  // epoch 1 is fenced, not replayed over block 0's newer data.
  replication::Lease back(lease_path().string(), kVolumeId, "owner:/tier", kLease);
  Volume v(dir_);
  ASSERT_EQ(v.open(kNoDestage, nullptr, kVolumeId, &back), 0) << v.error;
  EXPECT_GE(v.report.fenced_discarded, 9u);
  EXPECT_EQ(v.report.records_applied, 0u);
  EXPECT_EQ(v.datastore_bytes(0, kBlock), pattern(40, kBlock)) << "a stale record was replayed";
}

// WB+0: dirty records had no other copy than the failed tier. The volume stops
// (EIO) rather than serve or write anything that may be older than what was
// acknowledged.
TEST_F(WriteBackTest, WithoutPeersATierFailureWithDirtyDataMakesTheVolumeUnavailable) {
  Volume v(dir_);
  ASSERT_EQ(v.open(kNoDestage), 0) << v.error;
  ASSERT_EQ(v.write(0, pattern(1, kBlock)), 0);
  v.fail_tier();
  auto buf = blockdev::allocate_aligned(kBlock, 4096);
  Volume::Done d;
  ASSERT_EQ(v.engine->submit(Direction::kRead, 0, kBlock, buf.get(), Volume::on_done, &d), 0);
  ASSERT_TRUE(v.pump_until([&] { return d.done; }));
  EXPECT_EQ(d.status, -EIO);
  EXPECT_TRUE(v.engine->tier_unavailable());
  EXPECT_EQ(v.engine->submit(Direction::kRead, 0, kBlock, buf.get(), Volume::on_done, &d), -EIO);
  EXPECT_TRUE(any_event(v.events, "had no other copy (no peers: WB+0)")) << v.events.back();
}

// WB+0 whose journal is all destaged: nothing is lost, so the volume goes on
// without its tier.
TEST_F(WriteBackTest, WithoutPeersATierFailureAfterTheDestageLosesNothing) {
  Volume v(dir_);
  ASSERT_EQ(v.open(0), 0) << v.error;
  ASSERT_EQ(v.write(0, pattern(1, kBlock)), 0);
  ASSERT_EQ(v.engine->set_mode(CacheMode::kWriteThrough), 0);
  ASSERT_TRUE(v.pump_until([&] { return !v.engine->busy(); }));
  v.fail_tier();
  EXPECT_EQ(v.read(0, kBlock), pattern(1, kBlock));
  EXPECT_FALSE(v.engine->tier_unavailable());
  EXPECT_TRUE(v.engine->counters().tier_disabled);
  ASSERT_EQ(v.write(kBlock, pattern(2, kBlock)), 0);
  EXPECT_EQ(v.datastore_bytes(kBlock, kBlock), pattern(2, kBlock));
}

}  // namespace
}  // namespace tierwise::cache
