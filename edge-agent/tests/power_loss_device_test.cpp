// PowerLossDevice: what a flush makes durable, what a power cut keeps, tears
// and reorders, the completion order of poll(), and the errno contract.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "blockdev/aligned_buffer.hpp"
#include "blockdev/power_loss_device.hpp"

namespace tierwise::blockdev {
namespace {

constexpr uint32_t kSector = 512;
constexpr uint64_t kCapacity = 64 * kSector;

struct Count {
  int done = 0;
  int status = 0;
};
void on_done(void* arg, int status) {
  auto* c = static_cast<Count*>(arg);
  ++c->done;
  if (status != 0) c->status = status;
}

std::unique_ptr<PowerLossDevice> make(bool inline_completion, uint64_t seed = 1) {
  std::unique_ptr<PowerLossDevice> dev;
  EXPECT_EQ(PowerLossDevice::create({kCapacity, inline_completion, seed}, &dev), 0);
  return dev;
}

// An aligned buffer of `sectors` sectors, every byte `value`.
AlignedBytes filled(uint32_t sectors, uint8_t value) {
  AlignedBytes buf = allocate_aligned(sectors * kSector, kSector);
  std::memset(buf.get(), value, sectors * kSector);
  return buf;
}

// The byte at the start of each durable sector in [first, first + n).
std::vector<uint8_t> durable_sectors(const PowerLossDevice& dev, uint32_t first, uint32_t n) {
  std::vector<uint8_t> out;
  std::vector<std::byte> sector(kSector);
  for (uint32_t s = first; s < first + n; ++s) {
    EXPECT_EQ(dev.read_durable(uint64_t{s} * kSector, sector), 0);
    out.push_back(static_cast<uint8_t>(sector[0]));
  }
  return out;
}

PowerCut drop_everything() { return PowerCut{1, 0.0, 0.0, false}; }

TEST(PowerLossDevice, RefusesBadRangesAndBuffersWithEinval) {
  std::unique_ptr<PowerLossDevice> dev;
  EXPECT_EQ(PowerLossDevice::create({0, false, 0}, &dev), -EINVAL);
  EXPECT_EQ(PowerLossDevice::create({1000, false, 0}, &dev), -EINVAL);
  dev = make(false);
  auto buf = filled(2, 1);
  Count c;
  EXPECT_EQ(dev->submit_write(buf.get(), 100, kSector, on_done, &c), -EINVAL);     // offset
  EXPECT_EQ(dev->submit_write(buf.get(), 0, 100, on_done, &c), -EINVAL);           // length
  EXPECT_EQ(dev->submit_write(buf.get(), 0, 0, on_done, &c), -EINVAL);             // empty
  EXPECT_EQ(dev->submit_write(buf.get(), kCapacity, kSector, on_done, &c), -EINVAL);
  EXPECT_EQ(dev->submit_read(buf.get() + 1, 0, kSector, on_done, &c), -EINVAL);    // buffer
  EXPECT_EQ(dev->submit_discard(kCapacity - kSector, 2 * kSector, on_done, &c), -EINVAL);
  EXPECT_EQ(dev->in_flight(), 0u);
  EXPECT_EQ(c.done, 0) << "a refused request never completes";
  EXPECT_TRUE(dev->persistent());
}

TEST(PowerLossDevice, ReadsSeeCompletedWritesAndAFlushMakesThemDurable) {
  auto dev = make(false);
  auto a = filled(2, 0xA1);
  Count c;
  ASSERT_EQ(dev->submit_write(a.get(), 0, 2 * kSector, on_done, &c), 0);
  EXPECT_EQ(c.done, 0) << "queued until poll()";
  EXPECT_EQ(dev->in_flight(), 1u);
  EXPECT_EQ(dev->poll(), 1u);
  auto got = filled(2, 0);
  ASSERT_EQ(dev->submit_read(got.get(), 0, 2 * kSector, on_done, &c), 0);
  EXPECT_EQ(dev->poll(), 1u);
  EXPECT_EQ(std::memcmp(got.get(), a.get(), 2 * kSector), 0);
  EXPECT_EQ(durable_sectors(*dev, 0, 2), (std::vector<uint8_t>{0, 0})) << "not flushed yet";
  ASSERT_EQ(dev->submit_flush(on_done, &c), 0);
  EXPECT_EQ(dev->flushes_submitted(), 1u);
  EXPECT_EQ(dev->flushes_completed(), 0u);
  EXPECT_EQ(dev->poll(), 1u);
  EXPECT_EQ(dev->flushes_completed(), 1u);
  EXPECT_EQ(durable_sectors(*dev, 0, 2), (std::vector<uint8_t>{0xA1, 0xA1}));
  EXPECT_EQ(c.done, 3);
  EXPECT_EQ(c.status, 0);
}

TEST(PowerLossDevice, AFlushCoversOnlyWritesCompletedBeforeItWasSubmitted) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {  // both completion orders
    auto q = make(false, seed);
    auto a = filled(1, 0xA);
    Count c;
    ASSERT_EQ(q->submit_write(a.get(), 0, kSector, on_done, &c), 0);  // in flight
    ASSERT_EQ(q->submit_flush(on_done, &c), 0);
    while (q->in_flight() > 0) q->poll(1);
    EXPECT_EQ(durable_sectors(*q, 0, 1), (std::vector<uint8_t>{0})) << "seed " << seed;
    q->cut_power(drop_everything(), nullptr);
    EXPECT_EQ(durable_sectors(*q, 0, 1), (std::vector<uint8_t>{0}));
  }
  auto dev = make(true);  // inline: the write completed before the flush was submitted
  auto a = filled(1, 0xA);
  Count c;
  ASSERT_EQ(dev->submit_write(a.get(), 0, kSector, on_done, &c), 0);
  ASSERT_EQ(dev->submit_flush(on_done, &c), 0);
  EXPECT_EQ(durable_sectors(*dev, 0, 1), (std::vector<uint8_t>{0xA}));
}

TEST(PowerLossDevice, ACutKeepsTheFlushedImageAndDropsRequestsInFlight) {
  auto dev = make(false);
  auto a = filled(1, 0xA), b = filled(1, 0xB);
  Count c;
  ASSERT_EQ(dev->submit_write(a.get(), 0, kSector, on_done, &c), 0);
  dev->poll();
  ASSERT_EQ(dev->submit_flush(on_done, &c), 0);
  dev->poll();
  ASSERT_EQ(dev->submit_write(b.get(), 0, kSector, on_done, &c), 0);  // completed, unflushed
  dev->poll();
  ASSERT_EQ(dev->submit_write(b.get(), kSector, kSector, on_done, &c), 0);  // in flight
  ASSERT_EQ(dev->submit_flush(on_done, &c), 0);                             // in flight
  const int before = c.done;
  CutReport report;
  dev->cut_power(drop_everything(), &report);
  EXPECT_EQ(report.unflushed_writes, 2u);
  EXPECT_EQ(report.kept_writes, 0u);
  EXPECT_EQ(report.dropped_requests, 2u);
  EXPECT_EQ(dev->in_flight(), 0u);
  EXPECT_EQ(dev->poll(), 0u);
  EXPECT_EQ(c.done, before) << "dropped requests never complete";
  EXPECT_EQ(durable_sectors(*dev, 0, 2), (std::vector<uint8_t>{0xA, 0}));
  auto got = filled(2, 0xFF);
  ASSERT_EQ(dev->submit_read(got.get(), 0, 2 * kSector, on_done, &c), 0);
  dev->poll();
  EXPECT_EQ(static_cast<uint8_t>(got[0]), 0xA) << "after the cut it serves the durable image";
  EXPECT_EQ(static_cast<uint8_t>(got[kSector]), 0);
}

TEST(PowerLossDevice, ACutMayKeepAnyUnflushedWriteAndTearItAtSectorBoundaries) {
  bool kept_whole = false, torn = false, dropped = false;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    auto dev = make(true);
    auto a = filled(8, 0xA);
    Count c;
    ASSERT_EQ(dev->submit_write(a.get(), 0, 8 * kSector, on_done, &c), 0);
    CutReport report;
    dev->cut_power(PowerCut{seed, 0.5, 0.5, true}, &report);
    const auto s = durable_sectors(*dev, 0, 8);
    const auto n = static_cast<size_t>(std::count(s.begin(), s.end(), 0xA));
    for (uint8_t v : s) ASSERT_TRUE(v == 0 || v == 0xA) << "a sector is old or new, never mixed";
    EXPECT_EQ(report.unflushed_writes, 1u);
    if (report.kept_writes == 0) {
      EXPECT_EQ(n, 0u);
      dropped = true;
    } else if (report.torn_writes == 0) {
      EXPECT_EQ(n, 8u);
      kept_whole = true;
    } else {
      torn = true;
    }
  }
  EXPECT_TRUE(kept_whole && torn && dropped);
}

TEST(PowerLossDevice, OnlyWritesInFlightTogetherPersistOutOfOrder) {
  // a then b, both completed and unflushed, one sector: with every write kept,
  // sequential writes always end as b; concurrent ones may end as either.
  bool a_last = false;
  for (uint64_t seed = 1; seed <= 64; ++seed) {
    auto seq = make(true);
    auto a = filled(1, 0xA), b = filled(1, 0xB);
    Count c;
    ASSERT_EQ(seq->submit_write(a.get(), 0, kSector, on_done, &c), 0);
    ASSERT_EQ(seq->submit_write(b.get(), 0, kSector, on_done, &c), 0);
    seq->cut_power(PowerCut{seed, 1.0, 0.0, true}, nullptr);
    EXPECT_EQ(durable_sectors(*seq, 0, 1), (std::vector<uint8_t>{0xB})) << "seed " << seed;

    auto together = make(false, seed);
    ASSERT_EQ(together->submit_write(a.get(), 0, kSector, on_done, &c), 0);
    ASSERT_EQ(together->submit_write(b.get(), 0, kSector, on_done, &c), 0);
    together->cut_power(PowerCut{seed, 1.0, 0.0, true}, nullptr);
    if (durable_sectors(*together, 0, 1)[0] == 0xA) a_last = true;
  }
  EXPECT_TRUE(a_last) << "writes in flight together never persisted in the other order";
}

TEST(PowerLossDevice, PollCompletesOutOfOrderAndTheSameSeedRepeatsIt) {
  auto order_for = [](uint64_t seed) {
    auto dev = make(false, seed);
    std::vector<int> order;
    struct Tag {
      std::vector<int>* order;
      int id;
    };
    std::vector<Tag> tags;
    tags.reserve(16);
    auto buf = filled(1, 1);
    for (int i = 0; i < 16; ++i) {
      tags.push_back(Tag{&order, i});
      EXPECT_EQ(dev->submit_write(buf.get(), uint64_t(i) * kSector, kSector,
                                  [](void* arg, int) {
                                    auto* t = static_cast<Tag*>(arg);
                                    t->order->push_back(t->id);
                                  },
                                  &tags.back()),
                0);
    }
    while (dev->poll(1) == 1) {
    }
    return order;
  };
  const auto first = order_for(7);
  EXPECT_EQ(first.size(), 16u);
  EXPECT_EQ(order_for(7), first);
  EXPECT_FALSE(std::is_sorted(first.begin(), first.end()));
}

TEST(PowerLossDevice, DiscardIsAZeroWriteUnderTheSameRules) {
  auto dev = make(true);
  auto a = filled(2, 0xA);
  Count c;
  ASSERT_EQ(dev->submit_write(a.get(), 0, 2 * kSector, on_done, &c), 0);
  ASSERT_EQ(dev->submit_flush(on_done, &c), 0);
  ASSERT_EQ(dev->submit_discard(0, kSector, on_done, &c), 0);
  dev->cut_power(drop_everything(), nullptr);
  EXPECT_EQ(durable_sectors(*dev, 0, 2), (std::vector<uint8_t>{0xA, 0xA})) << "unflushed discard";
  ASSERT_EQ(dev->submit_discard(0, kSector, on_done, &c), 0);
  ASSERT_EQ(dev->submit_flush(on_done, &c), 0);
  EXPECT_EQ(durable_sectors(*dev, 0, 2), (std::vector<uint8_t>{0, 0xA}));
}

}  // namespace
}  // namespace tierwise::blockdev
