// Write-back: journal format and recovery (torn records, acknowledged damage),
// acknowledgements, the destager and its rate limit, live mode switches, the
// order of a destage and a write of the same block, WB+1 over real TCP peers
// (acknowledgement, trim, fallback), the replication frames.
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "blockdev/aligned_buffer.hpp"
#include "blockdev/ram_device.hpp"
#include "blockdev/uring_file_device.hpp"
#include "blockdev/uring_queue.hpp"
#include "cache/cache_engine.hpp"
#include "cache/engine_poll.hpp"
#include "cache/tier_index.hpp"
#include "cache/writeback/journal_format.hpp"
#include "replication/frame.hpp"
#include "replication/peer_set.hpp"
#include "replication/replica_server.hpp"
#include "replication/tcp.hpp"
#include "writeback_volume.hpp"

namespace tierwise::cache {
namespace {

using namespace test;  // NOLINT: the shared volume, fixture and constants
namespace wb = writeback;

constexpr uint64_t kNoDestage = 1;  // 1 byte/s: the destager never gets a whole block

TEST(JournalFormat, Crc32cMatchesTheRfc3720CheckValue) {
  const std::string s = "123456789";
  const auto bytes = std::as_bytes(std::span(s.data(), s.size()));
  EXPECT_EQ(wb::crc32c(bytes), 0xE3069283U);
  EXPECT_EQ(wb::crc32c(bytes.subspan(4), wb::crc32c(bytes.first(4))), 0xE3069283U);
}

TEST(JournalFormat, RecordRoundTripAndTornData) {
  std::vector<std::byte> entry(wb::kEntryBytes);
  const auto data = pattern(3, 1024);
  wb::RecordHeader h;
  h.seq = 9;
  h.block = 12345;
  h.offset = 512;
  h.durable_through = 8;
  h.volume_id = kVolumeId;
  wb::encode_record(h, data, entry);
  const auto got = wb::decode_record_header(std::span<const std::byte, 512>(entry.data(), 512));
  ASSERT_TRUE(got);
  EXPECT_EQ(got->seq, 9u);
  EXPECT_EQ(got->block, 12345u);
  EXPECT_EQ(got->offset, 512u);
  EXPECT_EQ(got->length, 1024u);
  EXPECT_EQ(got->durable_through, 8u);
  EXPECT_TRUE(wb::record_data_intact(*got, entry));
  entry[512 + 700] ^= std::byte{1};
  EXPECT_FALSE(wb::record_data_intact(*got, entry));
  entry[20] ^= std::byte{1};  // header damage: not a record at all
  EXPECT_FALSE(wb::decode_record_header(std::span<const std::byte, 512>(entry.data(), 512)));
}

TEST_F(WriteBackTest, RamTierIsRefused) {
  std::unique_ptr<blockdev::RamDevice> ram, ds;
  ASSERT_EQ(blockdev::RamDevice::create(kTierBytes * 2, &ram), 0);
  ASSERT_EQ(blockdev::RamDevice::create(kTierBytes, &ds), 0);
  WriteBackOptions o;
  o.journal_entries = kEntries;
  std::unique_ptr<CacheEngine> engine;
  wb::RecoveryReport report;
  std::string error;
  EXPECT_EQ(CacheEngine::open_write_back(*ds, *ram, kTierBytes, o, &engine, &report, &error),
            -ENOTSUP);
  EXPECT_NE(error.find("persistent tier"), std::string::npos) << error;
}

TEST_F(WriteBackTest, AcknowledgedWritesLiveInTheTierUntilDestagedBySwitchingToWriteThrough) {
  Volume v(dir_);
  ASSERT_EQ(v.open(kNoDestage), 0) << v.error;
  EXPECT_TRUE(v.report.formatted);
  ASSERT_EQ(v.write(0, pattern(1, 8192)), 0);
  ASSERT_EQ(v.write(3 * kBlock + 512, pattern(2, 1024)), 0);  // partial block
  EXPECT_EQ(v.engine->counters().dirty_bytes, 3 * kBlock);
  EXPECT_EQ(v.engine->mode(), CacheMode::kWriteBack);
  // Nothing reached the datastore yet; reads see the new data.
  EXPECT_EQ(v.datastore_bytes(0, 8192), std::vector<std::byte>(8192));
  EXPECT_EQ(v.read(0, 8192), pattern(1, 8192));
  auto block3 = v.read(3 * kBlock, kBlock);
  EXPECT_EQ(std::vector<std::byte>(block3.begin() + 512, block3.begin() + 1536), pattern(2, 1024));

  ASSERT_EQ(v.engine->set_mode(CacheMode::kWriteThrough), 0);
  ASSERT_TRUE(v.pump_until([&] { return v.engine->mode() == CacheMode::kWriteThrough && !v.engine->busy(); }));
  EXPECT_EQ(v.datastore_bytes(0, 8192), pattern(1, 8192));
  EXPECT_EQ(v.datastore_bytes(3 * kBlock, kBlock), block3);
  EXPECT_EQ(v.engine->counters().dirty_bytes, 0u);
  EXPECT_EQ(v.engine->counters().backlog_bytes, 0u);
  EXPECT_EQ(v.engine->counters().destaged_bytes, 3 * kBlock);
  ASSERT_EQ(v.events.size(), 2u);
  EXPECT_NE(v.events[1].find("backlog is destaged"), std::string::npos);
  // Write-through now: straight to the datastore.
  ASSERT_EQ(v.write(kBlock * 10, pattern(4, kBlock)), 0);
  EXPECT_EQ(v.datastore_bytes(kBlock * 10, kBlock), pattern(4, kBlock));
  EXPECT_EQ(v.engine->counters().journal_bytes, 3 * 512 + 8192 + 1024);
}

// The loss CI saw after a live switch (2 sectors of one block): a partial
// write-through write to a block that is still dirty puts only its own sectors
// on the datastore. The older record's sectors are in the slot alone, so the
// block must stay dirty until a destage writes it whole.
TEST_F(WriteBackTest, PartialWriteThroughOverADirtyBlockKeepsItDirtyUntilDestaged) {
  Volume v(dir_);
  ASSERT_EQ(v.open(kNoDestage), 0) << v.error;
  const auto older = pattern(1, 1024);  // sectors 6-7, write-back
  ASSERT_EQ(v.write(6 * 512, older), 0);
  ASSERT_EQ(v.engine->set_mode(CacheMode::kWriteThrough), 0);
  const auto newer = pattern(2, 1536);  // sectors 1-3, write-through, before any destage
  ASSERT_EQ(v.write(512, newer), 0);
  ASSERT_TRUE(v.pump_until([&] { return v.engine->mode() == CacheMode::kWriteThrough && !v.engine->busy(); }));
  std::vector<std::byte> expect(kBlock);
  std::copy(older.begin(), older.end(), expect.begin() + 6 * 512);
  std::copy(newer.begin(), newer.end(), expect.begin() + 512);
  EXPECT_TRUE(v.datastore_bytes(0, kBlock) == expect)
      << "the datastore lacks sectors of an acknowledged write";
  EXPECT_EQ(v.engine->counters().dirty_bytes, 0u);
}

TEST_F(WriteBackTest, RestartRecoversTheDirtyMapIntoTheDatastoreInSequenceOrder) {
  {
    Volume v(dir_);
    ASSERT_EQ(v.open(kNoDestage), 0) << v.error;
    ASSERT_EQ(v.write(0, pattern(1, kBlock)), 0);
    ASSERT_EQ(v.write(0, pattern(2, 1024)), 0);  // overwrites the first two sectors
    ASSERT_EQ(v.write(5 * kBlock, pattern(3, 2 * kBlock)), 0);
  }  // "crash": nothing destaged
  Volume v(dir_);
  ASSERT_EQ(v.open(kNoDestage), 0) << v.error;
  EXPECT_FALSE(v.report.formatted);
  EXPECT_EQ(v.report.records_applied, 4u);
  EXPECT_EQ(v.report.blocks_applied, 3u);
  EXPECT_EQ(v.report.torn_ignored, 0u);
  auto expect0 = pattern(1, kBlock);
  const auto over = pattern(2, 1024);
  std::copy(over.begin(), over.end(), expect0.begin());
  EXPECT_EQ(v.datastore_bytes(0, kBlock), expect0);
  EXPECT_EQ(v.datastore_bytes(5 * kBlock, 2 * kBlock), pattern(3, 2 * kBlock));
  EXPECT_EQ(v.report.next_seq, 5u);
  v.close();
  Volume again(dir_);  // recovery consumed the records: nothing twice
  ASSERT_EQ(again.open(kNoDestage), 0);
  EXPECT_EQ(again.report.records_applied, 0u);
}

// Damages the data of the record with `seq` in the tier file.
void damage_record(const fs::path& tier, uint64_t seq) {
  const auto layout = wb::TierLayout::for_entries(kEntries);
  const int fd = ::open(tier.c_str(), O_RDWR);
  std::byte b{0x5A};
  ASSERT_EQ(::pwrite(fd, &b, 1, static_cast<off_t>(layout.entry_offset(seq) + 512 + 100)), 1);
  ::close(fd);
}

TEST_F(WriteBackTest, TornRecordIsIgnoredOnlyWhenNeverFlushed) {
  {
    Volume v(dir_);
    ASSERT_EQ(v.open(kNoDestage), 0);
    ASSERT_EQ(v.write(0, pattern(1, kBlock)), 0);          // seq 1
    ASSERT_EQ(v.write(kBlock, pattern(2, kBlock)), 0);     // seq 2, durable_through 1
  }
  // Seq 2 was never named durable by a later record: its damage reads as a torn,
  // never-acknowledged write and is skipped.
  damage_record(dir_ / "tier.img", 2);
  {
    Volume v(dir_);
    ASSERT_EQ(v.open(kNoDestage), 0) << v.error;
    EXPECT_EQ(v.report.torn_ignored, 1u);
    EXPECT_EQ(v.report.records_applied, 1u);
    EXPECT_EQ(v.datastore_bytes(0, kBlock), pattern(1, kBlock));
    EXPECT_EQ(v.report.next_seq, 3u);  // above the torn record's sequence number
    ASSERT_EQ(v.write(2 * kBlock, pattern(3, kBlock)), 0);  // seq 3
    ASSERT_EQ(v.write(3 * kBlock, pattern(4, kBlock)), 0);  // seq 4, durable_through 3
  }
  // Seq 3 is covered by seq 4's durable_through: it was acknowledged. Damage there
  // must stop the volume rather than silently lose it.
  damage_record(dir_ / "tier.img", 3);
  Volume v(dir_);
  EXPECT_EQ(v.open(kNoDestage), -EIO);
  EXPECT_NE(v.error.find("acknowledged write is lost"), std::string::npos) << v.error;
}

TEST_F(WriteBackTest, AnotherVolumesJournalIsRefused) {
  {
    Volume v(dir_);
    ASSERT_EQ(v.open(kNoDestage), 0);
  }
  Volume v(dir_);
  EXPECT_EQ(v.open(kNoDestage, nullptr, kVolumeId + 1), -EINVAL);
  EXPECT_NE(v.error.find("belongs to volume"), std::string::npos) << v.error;
}

TEST_F(WriteBackTest, FullJournalMakesWritesWaitForTheDestager) {
  Volume v(dir_);
  ASSERT_EQ(v.open(0), 0);  // unlimited destage
  std::vector<blockdev::AlignedBytes> bufs(3 * kEntries);
  std::vector<Volume::Done> done(3 * kEntries);
  std::vector<std::vector<std::byte>> data;
  for (uint32_t i = 0; i < 3 * kEntries; ++i) data.push_back(pattern(i, kBlock));
  for (uint32_t i = 0; i < 3 * kEntries; ++i) v.start_write(i * kBlock, data[i], &bufs[i], &done[i]);
  ASSERT_TRUE(v.pump_until([&] {
    return std::all_of(done.begin(), done.end(), [](const auto& d) { return d.done; });
  }));
  for (const auto& d : done) EXPECT_EQ(d.status, 0);
  ASSERT_EQ(v.engine->set_mode(CacheMode::kWriteThrough), 0);
  ASSERT_TRUE(v.pump_until([&] { return !v.engine->busy(); }));
  for (uint32_t i = 0; i < 3 * kEntries; ++i) {
    ASSERT_EQ(v.datastore_bytes(i * kBlock, kBlock), data[i]) << "block " << i;
  }
  // A write larger than half the ring is refused rather than waiting forever.
  auto big = blockdev::allocate_aligned((kEntries / 2 + 1) * kBlock, 4096);
  EXPECT_EQ(v.engine->submit(trace::Direction::kWrite, 0, (kEntries / 2 + 1) * kBlock, big.get(),
                             Volume::on_done, nullptr),
            -EINVAL);
}

// A live shrink in write-back (CacheEngine::set_tier_capacity): the policy's
// clean victims leave, the dirty blocks keep their slots (never victims) until
// destaged, no size below the journal's minimum is taken, and every
// acknowledged write survives a crash right after the shrink (recovery) and
// reaches the datastore through the destager.
TEST_F(WriteBackTest, ShrinkKeepsDirtyBlocksUntilDestagedAndLosesNoAcknowledgedWrite) {
  constexpr uint32_t kDirty = 32;
  constexpr uint64_t kMinSlots = 2 * kEntries;
  Volume v(dir_);
  for (int run = 0; run < 2; ++run) {
    ASSERT_EQ(v.open(kNoDestage), 0) << v.error;
    for (uint32_t i = 0; i < kDirty; ++i) ASSERT_EQ(v.write(i * kBlock, pattern(100 * run + i, kBlock)), 0);
    for (uint32_t i = 0; i < 400; ++i) v.read((1000 + i) * kBlock, kBlock);  // clean blocks, more recent
    ASSERT_EQ(v.engine->counters().dirty_bytes, kDirty * kBlock);
    EXPECT_EQ(v.engine->set_tier_capacity((kMinSlots - 1) * kBlock, kTierBytes), -EINVAL);
    ASSERT_EQ(v.engine->set_tier_capacity(kMinSlots * kBlock, kTierBytes), 0);
    EXPECT_EQ(v.engine->index().size(), kMinSlots);
    EXPECT_EQ(v.engine->counters().occupancy_bytes, kMinSlots * kBlock);
    for (uint32_t i = 0; i < kDirty; ++i) {
      EXPECT_NE(v.engine->index().find(i), TierIndex::kNoSlot) << "dirty block " << i << " kept its slot";
      EXPECT_EQ(v.read(i * kBlock, kBlock), pattern(100 * run + i, kBlock));
    }
    if (run == 0) {
      v.close();  // a crash: nothing destaged; the next open recovers the journal
      continue;
    }
    EXPECT_EQ(v.report.blocks_applied, kDirty) << "run 0's writes were recovered";
    ASSERT_EQ(v.engine->set_mode(CacheMode::kWriteThrough), 0);
    ASSERT_TRUE(v.pump_until([&] { return v.engine->mode() == CacheMode::kWriteThrough && !v.engine->busy(); }));
    EXPECT_EQ(v.engine->counters().destaged_bytes, kDirty * kBlock);
  }
  for (uint32_t i = 0; i < kDirty; ++i) EXPECT_EQ(v.datastore_bytes(i * kBlock, kBlock), pattern(100 + i, kBlock));
}

TEST_F(WriteBackTest, DestagerKeepsToItsRateLimit) {
  Volume v(dir_);
  constexpr uint64_t kRate = 400 * 1024;  // bytes/s; the bucket starts empty
  const auto start = Clock::now();
  ASSERT_EQ(v.open(kRate), 0);
  for (uint32_t i = 0; i < 48; ++i) ASSERT_EQ(v.write(i * kBlock, pattern(i, kBlock)), 0);
  ASSERT_TRUE(v.pump_until([&] { return v.engine->counters().dirty_bytes == 0; }));
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const double destaged = static_cast<double>(v.engine->counters().destaged_bytes);
  EXPECT_EQ(destaged, 48.0 * kBlock);
  // 192 KiB at 400 KiB/s takes 0.48 s; allow one block of rounding, and not
  // more than twice as long plus scheduling slack.
  EXPECT_GE(seconds, (destaged - kBlock) / kRate);
  EXPECT_LE(seconds, 2 * destaged / kRate + 0.5);
  EXPECT_EQ(v.engine->counters().destage_rate_limit_bytes_per_s, kRate);
}

TEST_F(WriteBackTest, WbPlus1AcknowledgesAfterThePeerHoldsTheRecordAndTrimsAfterDestage) {
  std::unique_ptr<replication::ReplicaServer> peer;
  std::unique_ptr<replication::PeerSet> peers;
  ASSERT_NO_FATAL_FAILURE(start_peer(&peer, &peers));
  Volume v(dir_);
  ASSERT_EQ(v.open(kNoDestage, peers.get()), 0);
  IoOutcome whole, part;
  ASSERT_EQ(v.write(0, pattern(1, kBlock), &whole), 0);
  ASSERT_EQ(v.write(kBlock, pattern(2, 2048), &part), 0);
  // Acknowledged: so the peer holds both records already.
  EXPECT_EQ(peer->held_records(kVolumeId), 2u);
  // Where each write was served (the io.source shares of the telemetry): the
  // journal on the tier and the peer, never the datastore; the VM waited for both.
  for (const auto& [out, bytes] : {std::pair{whole, kBlock}, std::pair{part, uint64_t{2048}}}) {
    EXPECT_EQ(out.cache.bytes, bytes);
    EXPECT_EQ(out.peer.bytes, bytes);
    EXPECT_EQ(out.datastore.bytes, 0u);
    EXPECT_GT(out.peer.latency_ns, 0);
    EXPECT_LE(out.peer.latency_ns, out.frontend_latency_ns);
    EXPECT_LE(out.cache.latency_ns, out.frontend_latency_ns);
  }
  EXPECT_EQ(v.engine->counters().healthy_peers, 1u);
  EXPECT_EQ(v.engine->counters().replicated_bytes, 512 + kBlock + 512 + 2048);
  ASSERT_EQ(v.engine->set_mode(CacheMode::kWriteThrough), 0);
  ASSERT_TRUE(v.pump_until([&] { return !v.engine->busy(); }));
  ASSERT_TRUE(v.pump_until([&] { return peer->held_records(kVolumeId) == 0; }));
  EXPECT_EQ(v.datastore_bytes(0, kBlock), pattern(1, kBlock));
}

TEST_F(WriteBackTest, PeerFailureFallsBackToWriteThroughAndLosesNothing) {
  std::unique_ptr<replication::ReplicaServer> peer;
  std::unique_ptr<replication::PeerSet> peers;
  ASSERT_NO_FATAL_FAILURE(start_peer(&peer, &peers));
  Volume v(dir_);
  ASSERT_EQ(v.open(kNoDestage, peers.get()), 0);
  for (uint32_t i = 0; i < 8; ++i) ASSERT_EQ(v.write(i * kBlock, pattern(i, kBlock)), 0);
  peer.reset();  // the peer goes away
  // The next write cannot be replicated: it is acknowledged once destaged.
  ASSERT_EQ(v.write(8 * kBlock, pattern(8, kBlock)), 0);
  EXPECT_EQ(v.engine->counters().fallbacks, 1u);
  EXPECT_EQ(v.engine->counters().healthy_peers, 0u);
  ASSERT_FALSE(v.events.empty());
  EXPECT_NE(v.events[0].find("peer failed"), std::string::npos) << v.events[0];
  ASSERT_TRUE(v.pump_until([&] { return !v.engine->busy(); }));
  EXPECT_EQ(v.engine->mode(), CacheMode::kWriteThrough);
  for (uint32_t i = 0; i <= 8; ++i) EXPECT_EQ(v.datastore_bytes(i * kBlock, kBlock), pattern(i, kBlock));
  EXPECT_EQ(v.engine->set_mode(CacheMode::kWriteBack), -EPIPE);
}

// A disk with requests in flight: memory whose writes and flushes, while
// `hold` is set, wait until the test completes them one by one in an order it
// chooses (the data lands at completion). Reads complete at once. Persistent
// as far as the engine can tell, so it can hold a journal.
class HeldDevice final : public blockdev::BlockDevice {
 public:
  struct Op {
    bool flush;
    uint64_t offset;
    std::vector<std::byte> data;
    blockdev::IoCompletion cb;
    void* cb_arg;
  };
  explicit HeldDevice(uint64_t bytes) { EXPECT_EQ(blockdev::RamDevice::create(bytes, &ram_), 0); }
  uint32_t block_size() const override { return 1; }
  size_t buffer_alignment() const override { return 1; }
  int submit_read(void* buf, uint64_t offset, uint32_t length, blockdev::IoCompletion cb,
                  void* cb_arg) override {
    return ram_->submit_read(buf, offset, length, cb, cb_arg);
  }
  int submit_write(const void* buf, uint64_t offset, uint32_t length, blockdev::IoCompletion cb,
                   void* cb_arg) override {
    if (!hold) return ram_->submit_write(buf, offset, length, cb, cb_arg);
    const auto* bytes = static_cast<const std::byte*>(buf);
    held.push_back(Op{false, offset, {bytes, bytes + length}, cb, cb_arg});
    return 0;
  }
  int submit_flush(blockdev::IoCompletion cb, void* cb_arg) override {
    if (!hold) return ram_->submit_flush(cb, cb_arg);
    held.push_back(Op{true, 0, {}, cb, cb_arg});
    return 0;
  }
  // Lands the held request `i` (its data, for a write) and runs its completion.
  void complete(size_t i) {
    Op op = std::move(held[i]);
    held.erase(held.begin() + static_cast<ptrdiff_t>(i));
    if (!op.flush) {
      ram_->submit_write(op.data.data(), op.offset, static_cast<uint32_t>(op.data.size()),
                         [](void*, int status) { EXPECT_EQ(status, 0); }, nullptr);
    }
    op.cb(op.cb_arg, 0);
  }
  std::vector<std::byte> bytes(uint64_t offset, uint32_t length) {
    std::vector<std::byte> v(length);
    ram_->submit_read(v.data(), offset, length, [](void*, int) {}, nullptr);
    return v;
  }

  bool hold = false;
  std::vector<Op> held;

 private:
  std::unique_ptr<blockdev::RamDevice> ram_;
};

// The interleaving CI once hit during a live write-back -> write-through
// switch: a destage of block 0 (the older data A) is on its way to the
// datastore when a write-through write of the same block arrives. The
// datastore then completes the newer write first and the destage after it,
// and the tier flushes last. The datastore must end with the newer data: the
// write waits for the destage, so the two never race.
// Peers that acknowledge at once and confirm trims when the test says so.
class ScriptedPeers final : public wb::ReplicaSink {
 public:
  size_t peer_count() const override { return 1; }
  void start(uint64_t) override {}
  void send(uint64_t seq, std::span<const std::byte>) override { sent.push_back(seq); }
  uint64_t acked_through() const override { return sent.empty() ? 0 : sent.back(); }
  void trim(uint64_t watermark) override { trim_sent = watermark; }
  uint64_t trimmed_through() const override { return trimmed; }
  bool failed(std::string*) const override { return false; }
  void destage(uint64_t) override {}
  int destaged(uint64_t*, std::string* error) const override {
    *error = "scripted peers hold no data";
    return -EIO;
  }
  int wake_fd() const override { return -1; }

  std::vector<uint64_t> sent;
  uint64_t trim_sent = 0;
  uint64_t trimmed = 0;
};

// A block whose records a peer may still hold (its TRIM not confirmed) is
// journaled on every write, even one that goes to the datastore: otherwise a
// peer's takeover could replay the old record over that write.
TEST_F(WriteBackTest, WritesToABlockStayJournaledUntilThePeersConfirmTheTrim) {
  ScriptedPeers peers;
  Volume v(dir_);
  ASSERT_EQ(v.open(0, &peers), 0) << v.error;
  ASSERT_EQ(v.write(0, pattern(1, kBlock)), 0);
  ASSERT_EQ(v.engine->set_mode(CacheMode::kWriteThrough), 0);
  ASSERT_TRUE(v.pump_until([&] { return !v.engine->busy() && peers.trim_sent == 1; }));
  ASSERT_EQ(v.write(0, pattern(2, kBlock)), 0);  // write-through, the trim not confirmed yet
  EXPECT_EQ(peers.sent, (std::vector<uint64_t>{1, 2})) << "the write skipped the journal";
  EXPECT_EQ(v.datastore_bytes(0, kBlock), pattern(2, kBlock));
  ASSERT_TRUE(v.pump_until([&] { return !v.engine->busy() && peers.trim_sent == 2; }));
  peers.trimmed = 2;
  v.pump();
  ASSERT_EQ(v.write(0, pattern(3, kBlock)), 0);
  EXPECT_EQ(peers.sent, (std::vector<uint64_t>{1, 2})) << "confirmed trims: write-through needs no record";
  EXPECT_EQ(v.datastore_bytes(0, kBlock), pattern(3, kBlock));
}

// A peer that acknowledges before the tier's journal flush completes ends the
// write's peer share at its acknowledgement: the peer time the recommendation
// fits the replica link to (docs/analytics.md "The replica interconnect") is
// the link's, not the tier flush's.
TEST(WriteBackPeerShare, APeerFasterThanTheJournalFlushEndsThePeerShareAtItsAcknowledgement) {
  const auto layout = wb::TierLayout::for_entries(kEntries);
  HeldDevice datastore(kTierBytes), tier(layout.slot_base + kTierBytes);
  ScriptedPeers peers;  // acknowledge every record as it is sent
  WriteBackOptions o;
  o.volume_id = kVolumeId;
  o.journal_entries = kEntries;
  o.replicas = &peers;
  o.poll = [] {};
  std::unique_ptr<CacheEngine> engine;
  wb::RecoveryReport report;
  std::string error;
  ASSERT_EQ(CacheEngine::open_write_back(datastore, tier, kTierBytes, o, &engine, &report, &error), 0)
      << error;
  tier.hold = true;
  Volume::Done done;
  auto data = pattern(1, kBlock);
  ASSERT_EQ(engine->submit(trace::Direction::kWrite, 0, kBlock, data.data(), Volume::on_done, &done), 0);
  engine->tick();  // the engine's turn after the peer's acknowledgement woke it
  constexpr auto kFlush = std::chrono::milliseconds(40);
  std::this_thread::sleep_for(kFlush);
  while (!tier.held.empty()) tier.complete(0);  // the record, then its group commit's flush
  ASSERT_TRUE(done.done);
  ASSERT_EQ(done.status, 0);
  EXPECT_EQ(done.outcome.peer.bytes, kBlock);
  EXPECT_GE(done.outcome.cache.latency_ns, std::chrono::nanoseconds(kFlush).count());
  EXPECT_LT(done.outcome.peer.latency_ns, std::chrono::nanoseconds(kFlush).count() / 2)
      << "the peer share lasted until the journal flush, not the acknowledgement";
}

TEST(WriteBackOrdering, WriteToABlockWaitsForItsDestageInFlight) {
  const auto layout = wb::TierLayout::for_entries(kEntries);
  HeldDevice datastore(kTierBytes), tier(layout.slot_base + kTierBytes);
  WriteBackOptions o;
  o.volume_id = kVolumeId;
  o.journal_entries = kEntries;
  o.poll = [] {};  // the devices complete inside submit while nothing is held
  std::unique_ptr<CacheEngine> engine;
  wb::RecoveryReport report;
  std::string error;
  ASSERT_EQ(CacheEngine::open_write_back(datastore, tier, kTierBytes, o, &engine, &report, &error), 0)
      << error;
  Volume::Done a, b;
  auto older = pattern(1, kBlock);
  ASSERT_EQ(engine->submit(trace::Direction::kWrite, 0, kBlock, older.data(), Volume::on_done, &a), 0);
  ASSERT_TRUE(a.done);  // write-back: journaled and acknowledged

  ASSERT_EQ(engine->set_mode(CacheMode::kWriteThrough), 0);
  datastore.hold = tier.hold = true;
  engine->tick();  // the drain starts the destage of block 0
  ASSERT_EQ(datastore.held.size(), 1u);
  auto newer = pattern(2, 1024);  // sectors 1 and 2 of block 0
  ASSERT_EQ(engine->submit(trace::Direction::kWrite, 512, 1024, newer.data(), Volume::on_done, &b), 0);
  EXPECT_EQ(datastore.held.size(), 1u) << "the write went to the datastore beside the destage";
  EXPECT_FALSE(b.done);

  // The datastore completes its newest request first; the tier comes last.
  while (!datastore.held.empty() || !tier.held.empty()) {
    if (!datastore.held.empty()) {
      datastore.complete(datastore.held.size() - 1);
    } else {
      tier.complete(0);
    }
  }
  ASSERT_TRUE(b.done);
  EXPECT_EQ(b.status, 0);
  datastore.hold = tier.hold = false;
  for (int i = 0; i < 10 && engine->busy(); ++i) engine->tick();
  EXPECT_FALSE(engine->busy());
  EXPECT_EQ(engine->mode(), CacheMode::kWriteThrough);
  auto expect = older;
  std::copy(newer.begin(), newer.end(), expect.begin() + 512);
  EXPECT_TRUE(datastore.bytes(0, kBlock) == expect)
      << "block 0 on the datastore is not the newest data: the older destage landed last";
  EXPECT_EQ(engine->counters().dirty_bytes, 0u);
}

TEST(TierIndexHold, NoPolicyEvictsAHeldDirtyBlock) {
  for (const eviction::PolicyKind kind : eviction::all_policies()) {
    TierIndex index(4, 4, eviction::make_policy(kind, 4));
    const uint32_t dirty = index.insert(0).slot;
    index.hold(dirty);
    for (uint64_t b = 1; b < 100; ++b) {
      const TierIndex::Insertion ins = index.insert(b);
      ASSERT_NE(ins.slot, TierIndex::kNoSlot) << eviction::policy_name(kind);
      EXPECT_FALSE(ins.evicted && ins.evicted_block == 0) << eviction::policy_name(kind);
    }
    EXPECT_EQ(index.find(0), dirty) << eviction::policy_name(kind);
    index.release_hold(dirty);
    for (uint64_t b = 100; b < 200; ++b) index.insert(b);
    EXPECT_EQ(index.find(0), TierIndex::kNoSlot) << eviction::policy_name(kind);
  }
}

TEST(ReplicationFrame, DamagedFrameIsRejected) {
  int fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
  std::vector<std::byte> bytes;
  const auto payload = pattern(5, 600);
  replication::encode_frame(replication::FrameType::kRecord, 77, payload, &bytes);
  ASSERT_EQ(replication::write_all(fds[0], bytes), 0);
  replication::Frame f;
  std::string error;
  ASSERT_EQ(replication::read_frame(fds[1], &f, &error), 0);
  EXPECT_EQ(f.value, 77u);
  EXPECT_EQ(f.payload, payload);
  bytes[30] ^= std::byte{4};
  ASSERT_EQ(replication::write_all(fds[0], bytes), 0);
  EXPECT_EQ(replication::read_frame(fds[1], &f, &error), -EBADMSG);
  EXPECT_EQ(error, "frame checksum mismatch");
  ::close(fds[0]);
  ::close(fds[1]);
}

}  // namespace
}  // namespace tierwise::cache
