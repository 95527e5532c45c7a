// Exact LRU MRC against a brute-force LRU cache, and the exact workload
// summary on the real samples.
#include <vector>

#include <gtest/gtest.h>

#include "analysis/exact_lru_mrc.hpp"
#include "analysis/trace_summary.hpp"
#include "list_lru.hpp"
#include "test_support.hpp"
#include "trace/blocks.hpp"
#include "trace/trace_reader.hpp"

namespace tierwise::analysis {
namespace {

using tierwise::testing::trace_path;

// Misses of an LRU cache of `capacity` blocks, simulated directly.
uint64_t lru_misses(const std::vector<uint64_t>& blocks, size_t capacity) {
  tierwise::testing::ListLru lru(capacity);
  uint64_t misses = 0;
  for (uint64_t block : blocks) misses += lru.reference(block) ? 0 : 1;
  return misses;
}

// The 4 KiB block references of a trace, in order, up to `limit`.
std::vector<uint64_t> block_references(const std::string& path, size_t limit) {
  auto reader = trace::open_trace(path);
  trace::IoRecord io;
  std::vector<uint64_t> blocks;
  while (blocks.size() < limit && reader->next(io)) {
    trace::BlockRange range = trace::blocks_touched(io);
    for (uint64_t b = range.first; b <= range.last && blocks.size() < limit; ++b) blocks.push_back(b);
  }
  return blocks;
}

TEST(ExactLruMrc, StackDistancesOfAShortSequence) {
  ExactLruMrc mrc;
  for (uint64_t block : {1, 2, 3, 1, 2, 4, 1}) mrc.access(block);  // A B C A B D A
  EXPECT_EQ(mrc.accesses(), 7u);
  EXPECT_EQ(mrc.distinct_blocks(), 4u);
  // A and B come back after 2 other blocks (distance 3); the last A after B, D (3).
  ASSERT_EQ(mrc.histogram().size(), 4u);
  EXPECT_EQ(mrc.histogram()[3], 3u);
  EXPECT_DOUBLE_EQ(mrc.miss_ratio(2), 1.0);
  EXPECT_DOUBLE_EQ(mrc.miss_ratio(3), 4.0 / 7);
  EXPECT_DOUBLE_EQ(mrc.miss_ratio(1'000), 4.0 / 7);
}

TEST(ExactLruMrc, MatchesBruteForceLruOnASliceOfCloudPhysics) {
  // 200,000 references: more than the first time-stamp table (65,536), so
  // renumbering is exercised too.
  std::vector<uint64_t> blocks = block_references(trace_path("cloudphysics_w_sample.vscsi"), 200'000);
  ASSERT_EQ(blocks.size(), 200'000u);
  ExactLruMrc mrc;
  for (uint64_t block : blocks) mrc.access(block);
  for (size_t capacity : {1, 16, 256, 4'096, 16'384, 65'536}) {
    double expected = static_cast<double>(lru_misses(blocks, capacity)) / blocks.size();
    EXPECT_DOUBLE_EQ(mrc.miss_ratio(capacity), expected) << capacity << " blocks";
  }
}

TEST(ExactLruMrc, WholeCloudPhysicsCurveFallsToTheColdMissRatio) {
  std::vector<uint64_t> blocks = block_references(trace_path("cloudphysics_w_sample.vscsi"), SIZE_MAX);
  ExactLruMrc mrc;
  for (uint64_t block : blocks) mrc.access(block);
  EXPECT_EQ(mrc.distinct_blocks(), 269'210u);
  std::vector<uint64_t> sizes;
  for (uint64_t mib = 16; mib <= 2048; mib *= 2) sizes.push_back(mib << 20);
  std::vector<MrcPoint> curve = mrc.curve(sizes, trace::kBlockBytes);
  for (size_t i = 1; i < curve.size(); ++i) EXPECT_LE(curve[i].miss_ratio, curve[i - 1].miss_ratio);
  // 2 GiB holds the whole 1,051.6 MiB working set: only cold misses remain.
  EXPECT_DOUBLE_EQ(curve.back().miss_ratio, 269'210.0 / blocks.size());
}

TEST(TraceSummary, CountsTheWorkingSetOfEachVolume) {
  auto reader = trace::open_trace(trace_path("tencent_cbs_sample50k.csv.bz2"));
  TraceSummary summary;
  trace::IoRecord io;
  uint64_t sum_blocks_per_volume = 0;
  while (reader->next(io)) summary.add(io);
  std::vector<VolumeSummary> volumes = summary.volumes();
  ASSERT_EQ(volumes.size(), 2'038u);
  EXPECT_EQ(volumes.front().volume, "cbs-1058");  // first row's volume
  for (const VolumeSummary& v : volumes) {
    sum_blocks_per_volume += v.stats.distinct_blocks;
    EXPECT_LE(v.stats.distinct_read_blocks, v.stats.distinct_blocks);
    EXPECT_LE(v.stats.distinct_blocks, v.stats.distinct_read_blocks + v.stats.distinct_write_blocks);
  }
  WorkloadStats total = summary.total();
  EXPECT_EQ(total.operations(), 50'000u);
  EXPECT_EQ(total.reads, 24'521u);
  EXPECT_EQ(total.distinct_blocks, sum_blocks_per_volume);
  EXPECT_DOUBLE_EQ(total.time_span_s(), 1.0);
}

TEST(TraceSummary, APlanted512ByteOffsetShowsInTheAlignment) {
  auto reader = trace::open_trace(trace_path("msr_hm_0_sample1000.csv"));
  TraceSummary as_recorded, shifted;
  trace::IoRecord io;
  while (reader->next(io)) {
    as_recorded.add(io);
    io.offset_bytes += 512;  // a partition that starts one sector late
    shifted.add(io);
  }
  const WorkloadStats before = as_recorded.total();
  const WorkloadStats after = shifted.total();
  // Every I/O that started on a 4 KiB boundary now starts 512 bytes in.
  EXPECT_EQ(after.start_sector_ios[1], before.start_sector_ios[0]);
  EXPECT_GT(after.misaligned_ios(), 9 * after.operations() / 10);
  EXPECT_GT(after.blocks_issued, before.blocks_issued);
  EXPECT_EQ(after.blocks_aligned, before.blocks_aligned);
}

TEST(TraceSummary, CloudPhysicsWorkingSetIs1051MiB) {
  auto reader = trace::open_trace(trace_path("cloudphysics_w_sample.vscsi"));
  TraceSummary summary;
  trace::IoRecord io;
  while (reader->next(io)) summary.add(io);
  WorkloadStats total = summary.total();
  EXPECT_EQ(total.distinct_blocks, 269'210u);
  EXPECT_EQ(total.wss_bytes(), 269'210u * 4096);
  EXPECT_NEAR(total.time_span_s(), 7'200.09, 0.005);
  EXPECT_EQ(summary.volumes().size(), 1u);
}

}  // namespace
}  // namespace tierwise::analysis
