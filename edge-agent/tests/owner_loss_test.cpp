// Owner loss under WB+n (docs/write-back.md "Owner loss"): the ownership
// lease (acquire, renew, fence), a peer's takeover that destages the replicas
// to the datastore, and the recovery that fences an old owner's journal.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "cache/writeback/journal_format.hpp"
#include "replication/lease.hpp"
#include "replication/peer_set.hpp"
#include "replication/replica_server.hpp"
#include "replication/replica_store.hpp"
#include "writeback_volume.hpp"

namespace tierwise::cache {
namespace {

using namespace test;  // NOLINT: the shared volume, fixture and constants
using replication::Lease;
using replication::LeaseRecord;

using OwnerLossTest = WriteBackTest;

TEST_F(OwnerLossTest, TheLeaseGoesToTheNextEpochAndIsRenewed) {
  const fs::path path = dir_ / "ds.img.lease";
  Lease a(path.string(), kVolumeId, "host-a:/t", kLease);
  uint64_t epoch = 0;
  bool released = false;
  std::string error;
  ASSERT_EQ(a.read(&epoch, &released, &error), 0) << error;
  EXPECT_EQ(epoch, 0u);
  EXPECT_TRUE(released) << "no record: nobody owns the volume";
  ASSERT_EQ(a.acquire(0, UINT64_MAX, &epoch, &error), 0) << error;
  EXPECT_EQ(epoch, 1u);
  EXPECT_TRUE(wait_for([&] { return lease_at(path).renewals >= 2; }));
  const LeaseRecord r = lease_at(path);
  EXPECT_EQ(r.state, LeaseRecord::State::kOwned);
  EXPECT_EQ(r.holder, "host-a:/t");
  std::string why;
  EXPECT_FALSE(a.lost(&why));
}

TEST_F(OwnerLossTest, AnOwnedLeaseIsRefusedToATierWithoutThatEpochsJournal) {
  const fs::path path = dir_ / "ds.img.lease";
  Lease a(path.string(), kVolumeId, "host-a:/t", kLease);
  uint64_t epoch = 0;
  std::string error;
  ASSERT_EQ(a.acquire(0, UINT64_MAX, &epoch, &error), 0) << error;
  Lease b(path.string(), kVolumeId, "host-b:/t", kLease);
  EXPECT_EQ(b.acquire(1, UINT64_MAX, &epoch, &error), -EBUSY) << "a fresh tier: a's dirty data may be on its peers";
  EXPECT_NE(error.find("owned by host-a:/t"), std::string::npos) << error;
  EXPECT_EQ(b.acquire(0, 0, &epoch, &error), -ESTALE) << "the lease moved past epoch 0";
  Lease a2(path.string(), kVolumeId, "host-a:/t", kLease);
  ASSERT_EQ(a2.acquire(1, 1, &epoch, &error), 0) << "the owner restarting with its journal of epoch 1: " << error;
  EXPECT_EQ(epoch, 2u);
  std::string why;
  EXPECT_TRUE(wait_for([&] { return a.lost(&why); })) << "the first holder is fenced by epoch 2";
  EXPECT_NE(why.find("epoch 2 owned by"), std::string::npos) << why;
}

TEST_F(OwnerLossTest, ATornLeaseWriteFallsBackToThePreviousRecord) {
  const fs::path path = dir_ / "ds.img.lease";
  std::string error;
  for (uint64_t e : {5u, 6u}) {
    ASSERT_EQ(replication::update_lease(path.string(), [&](std::optional<LeaseRecord>& r) {
      r = LeaseRecord{kVolumeId, e, LeaseRecord::State::kOwned, 0, 0, "h"};
      return 0;
    }, &error), 0) << error;
  }
  EXPECT_EQ(lease_at(path).epoch, 6u);
  // The second write went to copy 0 (sequence 2): tear it.
  const int fd = ::open(path.c_str(), O_WRONLY);
  const char junk[16] = "torn-torn-torn-";
  ASSERT_EQ(::pwrite(fd, junk, sizeof junk, 100), static_cast<ssize_t>(sizeof junk));
  ::close(fd);
  EXPECT_EQ(lease_at(path).epoch, 5u);
}

// A journal record of `seq` for block `seq`, as an owner sends it.
std::vector<std::byte> journal_record(uint64_t seq) {
  std::vector<std::byte> entry(wb::kEntryBytes);
  wb::RecordHeader h;
  h.seq = seq;
  h.block = seq;
  h.volume_id = kVolumeId;
  wb::encode_record(h, pattern(seq, kBlock), entry);
  return entry;
}

TEST_F(OwnerLossTest, TheReplicaStoreReplaysItsLogAndCutsATornTail) {
  const std::string dir = (dir_ / "store").string();
  std::string error;
  replication::Hello hello;
  hello.epoch = 4;
  hello.datastore = "/shared/ds.img";
  {
    replication::ReplicaStore store;
    std::map<uint64_t, replication::StoredVolume> loaded;
    ASSERT_EQ(replication::ReplicaStore::open(dir, &store, &loaded, &error), 0) << error;
    EXPECT_TRUE(loaded.empty());
    ASSERT_EQ(store.hello(kVolumeId, hello), 0);
    for (uint64_t seq = 1; seq <= 3; ++seq) ASSERT_EQ(store.record(kVolumeId, seq, journal_record(seq)), 0);
    ASSERT_EQ(store.trim(kVolumeId, 1, false, hello), 0);
    ASSERT_EQ(store.sync(), 0);
  }
  const fs::path file = fs::path(dir) / (std::to_string(kVolumeId) + ".replicas");
  const auto valid = fs::file_size(file);
  {
    const int fd = ::open(file.c_str(), O_WRONLY | O_APPEND);
    const std::vector<std::byte> torn(100, std::byte{7});  // an append cut short by a crash
    ASSERT_EQ(::write(fd, torn.data(), torn.size()), 100);
    ::close(fd);
  }
  replication::ReplicaStore store;
  std::map<uint64_t, replication::StoredVolume> loaded;
  ASSERT_EQ(replication::ReplicaStore::open(dir, &store, &loaded, &error), 0) << error;
  ASSERT_EQ(loaded.count(kVolumeId), 1u);
  EXPECT_EQ(loaded[kVolumeId].hello.epoch, 4u);
  EXPECT_EQ(loaded[kVolumeId].hello.datastore, "/shared/ds.img");
  ASSERT_EQ(loaded[kVolumeId].records.size(), 2u) << "record 1 was trimmed";
  EXPECT_EQ(loaded[kVolumeId].records.begin()->first, 2u);
  EXPECT_EQ(loaded[kVolumeId].records[3], journal_record(3));
  EXPECT_EQ(fs::file_size(file), valid) << "the torn tail is cut off";
}

// A peer with a volume's records and the owner gone: the peer destages them.
using Takeover = OwnerWithPeerTest;

TEST_F(Takeover, APeerDestagesTheRecordsOfAnOwnerThatIsGoneInSequenceOrder) {
  {
    Volume v(dir_);
    ASSERT_NO_FATAL_FAILURE(start_owner(v));
    EXPECT_EQ(v.report.epoch, 1u);
    ASSERT_EQ(v.write(0, pattern(1, kBlock)), 0);
    ASSERT_EQ(v.write(kBlock, pattern(2, 2 * kBlock)), 0);
    ASSERT_EQ(v.write(kBlock + 1024, pattern(3, 1024)), 0);  // over part of the previous write
    ASSERT_EQ(peer->held_records(kVolumeId), 4u);
    EXPECT_EQ(v.datastore_bytes(0, 3 * kBlock), std::vector<std::byte>(3 * kBlock)) << "nothing destaged yet";
    kill_owner(v);
  }
  fs::remove(dir_ / "tier.img");  // the host is gone with its tier
  ASSERT_TRUE(wait_for([&] { return peer->held_records(kVolumeId) == 0; })) << "no takeover";
  EXPECT_TRUE(event_says("took over, destaged 4 records"));
  std::vector<std::byte> want = pattern(1, kBlock);
  const std::vector<std::byte> second = pattern(2, 2 * kBlock);
  want.insert(want.end(), second.begin(), second.end());
  const std::vector<std::byte> third = pattern(3, 1024);
  std::copy(third.begin(), third.end(), want.begin() + kBlock + 1024);
  EXPECT_EQ(read_file_range(dir_ / "ds.img", 0, 3 * kBlock), want);
  const LeaseRecord r = lease_at(lease_path());
  EXPECT_EQ(r.epoch, 2u);
  EXPECT_EQ(r.state, LeaseRecord::State::kReleased);
  EXPECT_EQ(r.destaged_through, 4u);
}

// The old owner comes back with its tier after the takeover, and a newer
// write reached the datastore meanwhile: its journal must not be applied.
TEST_F(Takeover, TheOldOwnerComingBackIsFencedAndItsJournalNotApplied) {
  {
    Volume v(dir_);
    ASSERT_NO_FATAL_FAILURE(start_owner(v));
    ASSERT_EQ(v.write(0, pattern(1, kBlock)), 0);
    kill_owner(v);
  }
  fs::copy_file(dir_ / "tier.img", dir_ / "old-tier.img");
  ASSERT_TRUE(wait_for([&] { return peer->held_records(kVolumeId) == 0; })) << "no takeover";
  // A later owner (write-through, no lease) writes block 0 anew.
  const std::vector<std::byte> newer = pattern(9, kBlock);
  {
    const int fd = ::open((dir_ / "ds.img").c_str(), O_WRONLY);
    ASSERT_EQ(::pwrite(fd, newer.data(), kBlock, 0), static_cast<ssize_t>(kBlock));
    ::close(fd);
  }
  Lease back(lease_path().string(), kVolumeId, "owner:/tier", kLease);
  Volume v(dir_);
  ASSERT_EQ(v.open(kNoDestage, nullptr, kVolumeId, &back), 0) << v.error;
  EXPECT_EQ(v.report.fenced_discarded, 1u);
  EXPECT_EQ(v.report.fenced_epoch, 1u);
  EXPECT_EQ(v.report.records_applied, 0u);
  EXPECT_EQ(v.report.epoch, 3u) << "released at 2 by the peer, taken at 3";
  EXPECT_EQ(v.datastore_bytes(0, kBlock), newer) << "a stale record was replayed over newer data";
  EXPECT_EQ(v.read(0, kBlock), newer);
  v.close();
  // The same tier without fencing (WB+0, no lease) replays its record over the
  // newer data: what the fence above prevented.
  fs::copy_file(dir_ / "old-tier.img", dir_ / "tier.img", fs::copy_options::overwrite_existing);
  Volume unfenced(dir_);
  ASSERT_EQ(unfenced.open(kNoDestage), 0) << unfenced.error;
  EXPECT_EQ(unfenced.report.records_applied, 1u);
  EXPECT_EQ(unfenced.datastore_bytes(0, kBlock), pattern(1, kBlock));
}

TEST_F(Takeover, AnOwnerThatKeepsRenewingIsNotTakenOverAndNewerEpochsDropOldRecords) {
  Volume v(dir_);
  ASSERT_NO_FATAL_FAILURE(start_owner(v));
  ASSERT_EQ(v.write(0, pattern(1, kBlock)), 0);
  // Only the link to the peer is lost (the owner still renews its lease).
  v.close();
  peers.reset();
  std::this_thread::sleep_for(3 * kLease);
  EXPECT_EQ(peer->held_records(kVolumeId), 1u) << "taken over while the owner renewed its lease";
  EXPECT_EQ(read_file_range(dir_ / "ds.img", 0, kBlock), std::vector<std::byte>(kBlock));
  // The owner moves on to a new epoch (it recovered its own journal): the peer
  // drops what it held of the old one instead of ever applying it.
  std::string error;
  ASSERT_EQ(replication::update_lease(lease_path().string(), [](std::optional<LeaseRecord>& r) {
    r->epoch = 2;
    return 0;
  }, &error), 0) << error;
  ASSERT_TRUE(wait_for([&] { return peer->held_records(kVolumeId) == 0; }));
  EXPECT_TRUE(event_says("the lease moved to epoch 2; dropping 1 records of epoch 1"));
  EXPECT_EQ(read_file_range(dir_ / "ds.img", 0, kBlock), std::vector<std::byte>(kBlock));
  std::string why;
  EXPECT_TRUE(wait_for([&] { return lease->lost(&why); })) << "the owner of epoch 1 is fenced";
}

TEST_F(Takeover, AFencedOwnerRefusesIoAndAPeerRefusesItsOlderEpoch) {
  Volume v(dir_);
  ASSERT_NO_FATAL_FAILURE(start_owner(v));
  ASSERT_EQ(v.write(0, pattern(1, kBlock)), 0);
  std::string error;
  ASSERT_EQ(replication::update_lease(lease_path().string(), [](std::optional<LeaseRecord>& r) {
    r->epoch = 7;
    r->holder = "someone else";
    return 0;
  }, &error), 0) << error;
  ASSERT_TRUE(v.pump_until([&] { return v.engine->fenced(); }));
  auto buf = blockdev::allocate_aligned(kBlock, 4096);
  Volume::Done d;
  EXPECT_EQ(v.engine->submit(trace::Direction::kWrite, 0, kBlock, buf.get(), Volume::on_done, &d), -EIO);
  EXPECT_EQ(v.engine->submit(trace::Direction::kRead, 0, kBlock, buf.get(), Volume::on_done, &d), -EIO);
  ASSERT_FALSE(v.events.empty());
  EXPECT_NE(v.events.back().find("fenced (lease"), std::string::npos) << v.events.back();
  // A second owner connection that greets the peer with an older epoch is closed.
  replication::Hello old;
  old.epoch = 0;
  std::unique_ptr<replication::PeerSet> stale;
  ASSERT_EQ(replication::PeerSet::connect({"127.0.0.1:" + std::to_string(peer->port())}, kVolumeId, old,
                                          milliseconds(1000), &stale, &error),
            0);
  stale->start(0);
  std::string why;
  EXPECT_TRUE(wait_for([&] { return stale->failed(&why); })) << "the peer accepted an older epoch";
}

// A peer that stops acknowledging (a partition) fails; once the owner drained
// its journal it moves to the next epoch, so the replicas of the old one that
// the unreachable peer holds are dropped, never applied over later writes.
TEST_F(Takeover, AfterAPeerFailureTheOwnerMovesToTheNextEpochAndTheOldReplicasAreDropped) {
  {
    Volume v(dir_);
    ASSERT_NO_FATAL_FAILURE(start_owner(v, std::chrono::seconds(3)));
    const auto start = Clock::now();
    ASSERT_EQ(v.write(0, pattern(1, kBlock)), 0) << "acknowledged as write-through after the peer failed";
    EXPECT_LT(Clock::now() - start, milliseconds(2500)) << "waited longer than the acknowledgement timeout";
    ASSERT_TRUE(v.pump_until([&] { return lease_at(lease_path()).epoch == 2; })) << "no new epoch after the drain";
    ASSERT_TRUE(v.pump_until([&] {
      return std::any_of(v.events.begin(), v.events.end(),
                         [](const std::string& e) { return e.find("replicas of epoch 1 are obsolete") != std::string::npos; });
    }));
    v.pump_until([] { return false; }, milliseconds(200));  // the superblock with epoch 2
    // Later writes reach the datastore directly (write-through).
    ASSERT_EQ(v.write(0, pattern(2, kBlock)), 0);
    EXPECT_EQ(v.datastore_bytes(0, kBlock), pattern(2, kBlock));
    kill_owner(v);
  }
  ASSERT_TRUE(wait_for([&] { return event_says("the lease moved to epoch 2; dropping 1 records of epoch 1"); }))
      << "the peer did not drop its replica of the old epoch";
  EXPECT_EQ(read_file_range(dir_ / "ds.img", 0, kBlock), pattern(2, kBlock)) << "an old replica was applied";
  // The owner restarts with its tier: its journal is of epoch 2, as the lease.
  Lease back(lease_path().string(), kVolumeId, "owner:/tier", kLease);
  Volume v(dir_);
  ASSERT_EQ(v.open(kNoDestage, nullptr, kVolumeId, &back), 0) << v.error;
  EXPECT_EQ(v.report.epoch, 3u);
  EXPECT_EQ(v.report.fenced_discarded, 0u);
}

// Persistent replicas: the peer's process dies too (a power cut of the rack),
// comes back, loads its replicas from its store and takes the volume over.
TEST_F(Takeover, APersistentPeerThatRestartsLoadsItsReplicasAndTakesOver) {
  const std::string store = (dir_ / "peer-store").string();
  {
    Volume v(dir_);
    ASSERT_NO_FATAL_FAILURE(start_owner(v, std::chrono::microseconds(0), store));
    ASSERT_EQ(v.write(0, pattern(1, kBlock)), 0);
    ASSERT_EQ(v.write(kBlock, pattern(2, kBlock)), 0);
    ASSERT_EQ(v.write(0, pattern(3, 1024)), 0);
    peer.reset();  // the peer's process is gone (its store was flushed before each ACK)
    kill_owner(v);
  }
  fs::remove(dir_ / "tier.img");
  ASSERT_NO_FATAL_FAILURE(start_peer(std::chrono::microseconds(0), store));
  EXPECT_TRUE(event_says("loaded 3 records of epoch 1"));
  ASSERT_TRUE(wait_for([&] { return event_says("took over, destaged 3 records"); })) << "no takeover";
  std::vector<std::byte> want = pattern(1, kBlock);
  const std::vector<std::byte> third = pattern(3, 1024);
  std::copy(third.begin(), third.end(), want.begin());
  const std::vector<std::byte> second = pattern(2, kBlock);
  want.insert(want.end(), second.begin(), second.end());
  EXPECT_EQ(read_file_range(dir_ / "ds.img", 0, 2 * kBlock), want);
  EXPECT_FALSE(fs::exists(fs::path(store) / (std::to_string(kVolumeId) + ".replicas")))
      << "the store keeps replicas that were taken over";
}

}  // namespace
}  // namespace tierwise::cache
