// Cache engine: LRU hit/miss/eviction counts against a brute-force reference,
// write-through data integrity, fills, latency, error handling.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <list>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "blockdev/aligned_buffer.hpp"
#include "blockdev/ram_device.hpp"
#include "blockdev/uring_file_device.hpp"
#include "blockdev/uring_queue.hpp"
#include "analysis/exact_lru_mrc.hpp"
#include "cache/cache_engine.hpp"
#include "test_support.hpp"
#include "trace/trace_reader.hpp"

namespace tierwise::cache {
namespace {

constexpr uint64_t kBlock = CacheEngine::kBlockBytes;

// Plain LRU over 4 KiB blocks, written the slow obvious way: a list searched
// linearly, most recently used first. Every block an I/O touches is one access.
class BruteForceLru {
 public:
  explicit BruteForceLru(size_t capacity_blocks) : capacity_(capacity_blocks) {}

  void access(Direction direction, uint64_t offset, uint32_t length) {
    const int d = static_cast<int>(direction);
    for (uint64_t b = offset / kBlock; b <= (offset + length - 1) / kBlock; ++b) {
      auto it = std::find(lru_.begin(), lru_.end(), b);
      if (it != lru_.end()) {
        ++hits[d];
        lru_.erase(it);
      } else {
        ++misses[d];
        ++inserted;
        if (lru_.size() == capacity_) {
          lru_.pop_back();
          ++evicted;
        }
      }
      lru_.push_front(b);
    }
  }
  size_t size() const { return lru_.size(); }

  uint64_t hits[2] = {0, 0};
  uint64_t misses[2] = {0, 0};
  uint64_t inserted = 0;
  uint64_t evicted = 0;

 private:
  size_t capacity_;
  std::list<uint64_t> lru_;
};

// Plain LRU with every miss populating: the model of the miss ratio curve.
constexpr EvictionOptions kPlainLru{eviction::PolicyKind::kLru, 0, 0};

// A cache engine over a real io_uring datastore file and a RAM tier, driven one
// I/O at a time.
class Harness {
 public:
  explicit Harness(uint64_t tier_bytes, const EvictionOptions& eviction = kPlainLru) {
    dir_ = std::filesystem::temp_directory_path() /
           ("tierwise-cache-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++));
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "volume.img").string();
    EXPECT_EQ(blockdev::UringQueue::create(256, &queue_), 0);
    EXPECT_EQ(blockdev::UringFileDevice::open(*queue_, path_, &datastore_), 0);
    EXPECT_EQ(blockdev::RamDevice::create(tier_bytes, &tier_), 0);
    EXPECT_EQ(CacheEngine::create(*datastore_, *tier_, tier_bytes, eviction, &engine_), 0);
  }
  ~Harness() {
    engine_.reset();
    datastore_.reset();
    queue_.reset();
    std::filesystem::remove_all(dir_);
  }

  // Runs one I/O to completion and returns its outcome.
  IoOutcome run(Direction direction, uint64_t offset, uint32_t length, void* buf) {
    struct Result {
      bool done = false;
      IoOutcome outcome;
    } result;
    auto cb = [](void* arg, const IoOutcome& o) {
      auto* r = static_cast<Result*>(arg);
      r->done = true;
      r->outcome = o;
    };
    EXPECT_EQ(engine_->submit(direction, offset, length, buf, cb, &result), 0);
    while (!result.done) EXPECT_GE(queue_->poll(true), 0);
    return result.outcome;
  }

  // Runs an I/O with a scratch buffer (contents irrelevant).
  IoOutcome run(Direction direction, uint64_t offset, uint32_t length) {
    if (scratch_size_ < length) {
      scratch_ = blockdev::allocate_aligned(length, 4096);
      std::memset(scratch_.get(), 0x5a, length);
      scratch_size_ = length;
    }
    return run(direction, offset, length, scratch_.get());
  }

  CacheEngine& engine() { return *engine_; }
  const std::string& path() const { return path_; }
  // Polls the datastore's queue until nothing is in flight.
  void drain() {
    while (queue_->in_flight() > 0) EXPECT_GE(queue_->poll(true), 0);
  }

 private:
  static inline int counter_ = 0;
  std::filesystem::path dir_;
  std::string path_;
  std::unique_ptr<blockdev::UringQueue> queue_;
  std::unique_ptr<blockdev::UringFileDevice> datastore_;
  std::unique_ptr<blockdev::RamDevice> tier_;
  std::unique_ptr<CacheEngine> engine_;
  blockdev::AlignedBytes scratch_;
  uint32_t scratch_size_ = 0;
};

void expect_same_counts(const CacheCounters& c, const BruteForceLru& ref) {
  for (int d = 0; d < 2; ++d) {
    EXPECT_EQ(c.hit_blocks[d], ref.hits[d]) << "direction " << d;
    EXPECT_EQ(c.miss_blocks[d], ref.misses[d]) << "direction " << d;
  }
  EXPECT_EQ(c.population_bytes, ref.inserted * kBlock);
  EXPECT_EQ(c.eviction_bytes, ref.evicted * kBlock);
  EXPECT_EQ(c.occupancy_bytes, ref.size() * kBlock);
}

TEST(CacheEngineTest, HandWorkedLruSequence) {
  // Capacity 2 blocks: read b0 (miss), b1 (miss), b0 (hit), b2 (miss, evicts b1),
  // b1 (miss, evicts b0), write b2 (hit).
  Harness h(2 * kBlock);
  BruteForceLru ref(2);
  const std::pair<Direction, uint64_t> steps[] = {
      {Direction::kRead, 0}, {Direction::kRead, 1}, {Direction::kRead, 0},
      {Direction::kRead, 2}, {Direction::kRead, 1}, {Direction::kWrite, 2}};
  for (auto [dir, block] : steps) {
    h.run(dir, block * kBlock, kBlock);
    ref.access(dir, block * kBlock, kBlock);
  }
  const CacheCounters& c = h.engine().counters();
  EXPECT_EQ(c.hit_blocks[0], 1u);
  EXPECT_EQ(c.miss_blocks[0], 4u);
  EXPECT_EQ(c.hit_blocks[1], 1u);
  EXPECT_EQ(c.miss_blocks[1], 0u);
  EXPECT_EQ(c.eviction_bytes, 2 * kBlock);
  EXPECT_EQ(c.population_bytes, 4 * kBlock);
  EXPECT_EQ(c.capacity_bytes, 2 * kBlock);
  expect_same_counts(c, ref);
}

TEST(CacheEngineTest, SyntheticSequenceMatchesBruteForceLru) {
  // Sector-aligned I/Os of 512 B..16 KiB over 96 blocks, 2/3 reads, capacity 24 blocks.
  Harness h(24 * kBlock);
  BruteForceLru ref(24);
  std::mt19937 rng(20240607);
  for (int i = 0; i < 3000; ++i) {
    const Direction dir = rng() % 3 == 0 ? Direction::kWrite : Direction::kRead;
    const uint64_t offset = (rng() % (96 * 8)) * 512;
    const uint32_t length = (1 + rng() % 32) * 512;
    h.run(dir, offset, length);
    ref.access(dir, offset, length);
  }
  expect_same_counts(h.engine().counters(), ref);
  EXPECT_GT(ref.evicted, 0u);
  EXPECT_GT(ref.hits[0] + ref.hits[1], 0u);
}

TEST(CacheEngineTest, CloudPhysicsTraceSliceMatchesBruteForceLruAndTheExactMrc) {
  // The first 3,000 I/Os of the real CloudPhysics vSCSI trace, tier of 1,024 blocks.
  auto reader = trace::open_trace(testing::trace_path("cloudphysics_w_sample.vscsi"));
  Harness h(1024 * kBlock);
  BruteForceLru ref(1024);
  analysis::ExactLruMrc mrc;  // what the service predicts from the same references
  trace::IoRecord record;
  int n = 0;
  while (n < 3000 && reader->next(record)) {
    ++n;
    h.run(record.direction, record.offset_bytes, record.length_bytes);
    ref.access(record.direction, record.offset_bytes, record.length_bytes);
    for (uint64_t b = record.offset_bytes / kBlock;
         b <= (record.offset_bytes + record.length_bytes - 1) / kBlock; ++b) {
      mrc.access(b);
    }
  }
  ASSERT_EQ(n, 3000);
  const CacheCounters& c = h.engine().counters();
  expect_same_counts(c, ref);
  EXPECT_GT(ref.evicted, 0u) << "the slice should overflow a 4 MiB tier";
  const uint64_t misses = c.miss_blocks[0] + c.miss_blocks[1];
  const uint64_t accesses = misses + c.hit_blocks[0] + c.hit_blocks[1];
  EXPECT_EQ(accesses, mrc.accesses());
  EXPECT_DOUBLE_EQ(static_cast<double>(misses) / accesses, mrc.miss_ratio(1024));
}

TEST(CacheEngineTest, WriteThroughDataSurvivesEvictionAndLandsOnTheDatastoreBeforeAck) {
  // A 4-block tier under 40 blocks of data: most reads come back from the datastore.
  Harness h(4 * kBlock);
  constexpr uint64_t kVolume = 40 * kBlock;
  std::vector<unsigned char> shadow(kVolume, 0);
  std::mt19937 rng(7);
  auto buf = blockdev::allocate_aligned(16 * kBlock, 4096);
  const int fd = ::open(h.path().c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  for (int i = 0; i < 300; ++i) {
    const uint32_t length = (1 + rng() % 24) * 512;
    const uint64_t offset = (rng() % ((kVolume - length) / 512 + 1)) * 512;
    if (rng() % 2 == 0) {
      for (uint32_t j = 0; j < length; ++j) buf[j] = std::byte(rng());
      const IoOutcome o = h.run(Direction::kWrite, offset, length, buf.get());
      ASSERT_EQ(o.status, 0);
      EXPECT_EQ(o.datastore.bytes, length);
      std::memcpy(shadow.data() + offset, buf.get(), length);
      // Write-through: on the datastore when acknowledged.
      std::vector<unsigned char> disk(length);
      ASSERT_EQ(::pread(fd, disk.data(), length, static_cast<off_t>(offset)), ssize_t(length));
      ASSERT_EQ(std::memcmp(disk.data(), shadow.data() + offset, length), 0) << "write " << i;
    } else {
      const IoOutcome o = h.run(Direction::kRead, offset, length, buf.get());
      ASSERT_EQ(o.status, 0);
      EXPECT_EQ(o.cache.bytes + o.datastore.bytes, length);
      ASSERT_EQ(std::memcmp(buf.get(), shadow.data() + offset, length), 0) << "read " << i;
    }
  }
  ::close(fd);
  const CacheCounters& c = h.engine().counters();
  EXPECT_GT(c.hit_blocks[0], 0u);
  EXPECT_GT(c.miss_blocks[0], 0u);
  EXPECT_GT(c.eviction_bytes, 0u);
  EXPECT_LE(c.occupancy_bytes, 4 * kBlock);
}

TEST(CacheEngineTest, DiscardDropsWholeBlocksFromTheTierAndTheDatastore) {
  Harness h(16 * kBlock);
  auto buf = blockdev::allocate_aligned(8 * kBlock, 4096);
  std::memset(buf.get(), 0x77, 8 * kBlock);
  ASSERT_EQ(h.run(Direction::kWrite, 0, 8 * kBlock, buf.get()).status, 0);
  EXPECT_EQ(h.engine().counters().occupancy_bytes, 8 * kBlock);
  // Blocks 1..5 whole, plus half of block 0 and of block 6 (kept as they are).
  struct Result {
    int calls = 0, status = 1;
  } result;
  auto cb = [](void* arg, int status) {
    auto* r = static_cast<Result*>(arg);
    ++r->calls;
    r->status = status;
  };
  EXPECT_EQ(h.engine().submit_discard(100, 512, cb, &result), -EINVAL);
  ASSERT_EQ(h.engine().submit_discard(kBlock / 2, 6 * kBlock, cb, &result), 0);
  h.drain();
  ASSERT_EQ(result.calls, 1);
  ASSERT_EQ(result.status, 0);
  EXPECT_EQ(h.engine().counters().occupancy_bytes, 3 * kBlock);  // blocks 0, 6 and 7
  const IoOutcome o = h.run(Direction::kRead, 0, 8 * kBlock, buf.get());
  ASSERT_EQ(o.status, 0);
  EXPECT_EQ(o.datastore.bytes, 5 * kBlock) << "the discarded blocks are misses";
  for (uint64_t i = 0; i < 8 * kBlock; ++i) {
    const bool discarded = i >= kBlock && i < 6 * kBlock;
    ASSERT_EQ(buf[i], std::byte(discarded ? 0 : 0x77)) << "byte " << i;
  }
}

TEST(CacheEngineTest, PartialWriteOfAnAbsentBlockFillsTheRestFromTheDatastore) {
  Harness h(16 * kBlock);
  // Block 7 holds 'o' on the datastore, put there behind the engine's back.
  {
    const int fd = ::open(h.path().c_str(), O_WRONLY);
    std::vector<char> old(kBlock, 'o');
    ASSERT_EQ(::pwrite(fd, old.data(), kBlock, 7 * kBlock), ssize_t(kBlock));
    ::close(fd);
  }
  auto buf = blockdev::allocate_aligned(kBlock, 4096);
  std::memset(buf.get(), 'n', 512);
  const IoOutcome w = h.run(Direction::kWrite, 7 * kBlock + 1024, 512, buf.get());
  ASSERT_EQ(w.status, 0);
  EXPECT_EQ(h.engine().counters().miss_blocks[1], 1u);
  EXPECT_EQ(h.engine().counters().fill_bytes, kBlock);
  EXPECT_EQ(h.engine().counters().population_bytes, kBlock);

  // The whole block is now a hit, served by the tier alone, old bytes around new.
  const IoOutcome r = h.run(Direction::kRead, 7 * kBlock, kBlock, buf.get());
  ASSERT_EQ(r.status, 0);
  EXPECT_EQ(h.engine().counters().hit_blocks[0], 1u);
  EXPECT_EQ(r.cache.bytes, kBlock);
  EXPECT_EQ(r.datastore.bytes, 0u);
  EXPECT_EQ(static_cast<char>(buf[1023]), 'o');
  EXPECT_EQ(static_cast<char>(buf[1024]), 'n');
  EXPECT_EQ(static_cast<char>(buf[1535]), 'n');
  EXPECT_EQ(static_cast<char>(buf[1536]), 'o');
}

TEST(CacheEngineTest, MeasuresLatencyPerSource) {
  Harness h(16 * kBlock);
  const IoOutcome miss = h.run(Direction::kRead, 0, 2 * kBlock);
  EXPECT_EQ(miss.datastore.bytes, 2 * kBlock);
  EXPECT_EQ(miss.cache.bytes, 0u);
  EXPECT_GT(miss.datastore.latency_ns, 0);
  EXPECT_GE(miss.frontend_latency_ns, miss.datastore.latency_ns);

  // Half hit, half miss: both sources served a part.
  const IoOutcome mixed = h.run(Direction::kRead, kBlock, 2 * kBlock);
  EXPECT_EQ(mixed.cache.bytes, kBlock);
  EXPECT_EQ(mixed.datastore.bytes, kBlock);
  EXPECT_GE(mixed.frontend_latency_ns, mixed.datastore.latency_ns);

  const IoOutcome hit = h.run(Direction::kRead, 0, kBlock);
  EXPECT_EQ(hit.cache.bytes, kBlock);
  EXPECT_EQ(hit.datastore.bytes, 0u);
  EXPECT_GT(hit.frontend_latency_ns, 0);

  const IoOutcome write = h.run(Direction::kWrite, 0, kBlock);
  EXPECT_EQ(write.datastore.bytes, kBlock);
  EXPECT_EQ(write.cache.bytes, 0u) << "a write-through write is served by the datastore";
  EXPECT_GT(write.datastore.latency_ns, 0);
}

TEST(CacheEngineTest, RefusesUnalignedIo) {
  Harness h(16 * kBlock);
  auto buf = blockdev::allocate_aligned(kBlock, 4096);
  int calls = 0;
  auto cb = [](void* arg, const IoOutcome&) { ++*static_cast<int*>(arg); };
  EXPECT_EQ(h.engine().submit(Direction::kRead, 100, 512, buf.get(), cb, &calls), -EINVAL);
  EXPECT_EQ(h.engine().submit(Direction::kRead, 0, 100, buf.get(), cb, &calls), -EINVAL);
  EXPECT_EQ(h.engine().submit(Direction::kRead, 0, 0, buf.get(), cb, &calls), -EINVAL);
  EXPECT_EQ(h.engine().submit(Direction::kWrite, 0, 512, buf.get() + 1, cb, &calls), -EINVAL);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(h.engine().in_flight(), 0u);
}

TEST(CacheEngineTest, FailedDatastoreWriteLeavesNothingInTheTier) {
  // A 64 KiB RAM datastore refuses a write past its end; the engine must report
  // the error and must not keep the write's first block (inside the range) cached.
  std::unique_ptr<blockdev::RamDevice> datastore, tier;
  ASSERT_EQ(blockdev::RamDevice::create(64 * 1024, &datastore), 0);
  ASSERT_EQ(blockdev::RamDevice::create(16 * kBlock, &tier), 0);
  std::unique_ptr<CacheEngine> engine;
  ASSERT_EQ(CacheEngine::create(*datastore, *tier, 16 * kBlock, kPlainLru, &engine), 0);
  std::vector<char> buf(2 * kBlock, 'w');
  IoOutcome out;
  auto cb = [](void* arg, const IoOutcome& o) { *static_cast<IoOutcome*>(arg) = o; };
  ASSERT_EQ(engine->submit(Direction::kWrite, 15 * kBlock, 2 * kBlock, buf.data(), cb, &out), 0);
  EXPECT_EQ(out.status, -EINVAL);
  EXPECT_EQ(engine->counters().occupancy_bytes, 0u);
  EXPECT_EQ(engine->counters().population_bytes, 0u);

  ASSERT_EQ(engine->submit(Direction::kRead, 15 * kBlock, kBlock, buf.data(), cb, &out), 0);
  EXPECT_EQ(out.status, 0);
  EXPECT_EQ(out.datastore.bytes, kBlock) << "must miss: the tier may not hold unwritten data";
  EXPECT_EQ(buf[0], 0);
}

TEST(CacheEngineTest, SequentialCutoffStopsPopulationOnceAStreamReachesIt) {
  // Cut-off 64 KiB: a 1 MiB sequential read in 16 KiB I/Os populates its
  // first three I/Os (48 KiB), then the stream has reached the cut-off.
  Harness h(256 * kBlock, EvictionOptions{eviction::PolicyKind::kLru, 64 * 1024, 0});
  for (uint64_t off = 0; off < (1u << 20); off += 16 * 1024) h.run(Direction::kRead, off, 16 * 1024);
  const CacheCounters& c = h.engine().counters();
  EXPECT_EQ(c.population_bytes, 48 * 1024u);
  EXPECT_EQ(c.bypass_bytes, (1u << 20) - 48 * 1024u);
  EXPECT_EQ(c.occupancy_bytes, 48 * 1024u);
  // What it did populate is served from the tier.
  const IoOutcome again = h.run(Direction::kRead, 0, 48 * 1024);
  EXPECT_EQ(again.cache.bytes, 48 * 1024u);
  // Random I/O away from the stream still populates.
  h.run(Direction::kRead, 40ull << 20, kBlock);
  h.run(Direction::kWrite, 80ull << 20, kBlock);
  EXPECT_EQ(h.engine().counters().population_bytes, 48 * 1024u + 2 * kBlock);
}

// A hot set of 16 blocks read three times (pushed out once in between, so 2Q
// sees it again after A1in), then a 2 MiB sequential scan, then the hot set
// again: how many of its blocks the tier still serves.
uint64_t hot_hits_after_scan(const EvictionOptions& eviction) {
  Harness h(64 * kBlock, eviction);
  auto read_hot = [&] {
    for (uint64_t b = 0; b < 16; ++b) h.run(Direction::kRead, b * kBlock, kBlock);
  };
  read_hot();
  for (uint64_t b = 0; b < 64; ++b) h.run(Direction::kRead, (1000 + b) * kBlock, kBlock);
  read_hot();
  read_hot();
  for (uint64_t off = 0; off < (2u << 20); off += 64 * 1024) {
    h.run(Direction::kRead, (100ull << 20) + off, 64 * 1024);
  }
  const uint64_t before = h.engine().counters().hit_blocks[0];
  read_hot();
  return h.engine().counters().hit_blocks[0] - before;
}

TEST(CacheEngineTest, EachVolumeChoosesItsPolicyScanResistantOnesKeepTheHotSet) {
  using eviction::PolicyKind;
  EXPECT_EQ(hot_hits_after_scan({PolicyKind::kLru, 0, 0}), 0u) << "LRU: the scan flushes the tier";
  EXPECT_EQ(hot_hits_after_scan({PolicyKind::kS3Fifo, 0, 0}), 16u);
  EXPECT_EQ(hot_hits_after_scan({PolicyKind::kArc, 0, 0}), 16u);
  EXPECT_EQ(hot_hits_after_scan({PolicyKind::kTwoQ, 0, 0}), 16u);
  EXPECT_EQ(hot_hits_after_scan({PolicyKind::kSieve, 0, 0}), 16u);
  // LRU with the sequential cut-off: the scan does not populate at all.
  EXPECT_EQ(hot_hits_after_scan({PolicyKind::kLru, 256 * 1024, 0}), 16u);
}

}  // namespace
}  // namespace tierwise::cache
