// Telemetry: vscsiStats ioLength bins, latency buckets, per-interval collection.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "telemetry/io_bins.hpp"
#include "telemetry/volume_collector.hpp"

namespace tierwise::telemetry {
namespace {

TEST(IoBinsTest, SizesLandInVscsiStatsIoLengthBins) {
  EXPECT_EQ(size_bin_label(size_bin(4096)), "4096");
  EXPECT_EQ(size_bin_label(size_bin(4097)), "8191");
  EXPECT_EQ(size_bin_label(size_bin(600000)), ">524288");
  EXPECT_EQ(size_bin_label(size_bin(1)), "512");
  EXPECT_EQ(size_bin_label(size_bin(512)), "512");
  EXPECT_EQ(size_bin_label(size_bin(513)), "1024");
  EXPECT_EQ(size_bin_label(size_bin(4095)), "4095");
  EXPECT_EQ(size_bin_label(size_bin(8192)), "8192");
  EXPECT_EQ(size_bin_label(size_bin(65536)), "65536");
  EXPECT_EQ(size_bin_label(size_bin(69632)), "81920");
  EXPECT_EQ(size_bin_label(size_bin(524288)), "524288");
  EXPECT_EQ(size_bin_label(size_bin(524289)), ">524288");
  EXPECT_EQ(kSizeBinCount, 18u);
}

TEST(IoBinsTest, LatenciesLandInLogLinearBuckets) {
  // Bounds are microseconds, inclusive: (1, 2] us is bucket "2".
  EXPECT_EQ(latency_bucket(0), 0u);
  EXPECT_EQ(latency_bucket(1000), 0u);
  EXPECT_EQ(latency_bucket(1001), 1u);
  EXPECT_EQ(latency_bucket(150'000), 7u);        // 150 us -> (100, 200]
  EXPECT_EQ(latency_bucket(1'000'000'000), 18u); // 1 s -> last bound
  EXPECT_EQ(latency_bucket(1'000'000'001), 19u); // above 1 s
  EXPECT_EQ(kLatencyBucketCount, 20u);
}

// The per-I/O lookups (tables by sector count and by bit width) agree with a
// plain search of the bounds for every size up to past the last bound and for
// latencies around every bound and every power of two.
TEST(IoBinsTest, TableLookupsAgreeWithSearchingTheBounds) {
  for (uint64_t bytes = 0; bytes <= kIoLengthBounds.back() + 4096; ++bytes) {
    size_t want = 0;
    while (want < kIoLengthBounds.size() && kIoLengthBounds[want] < bytes) ++want;
    ASSERT_EQ(size_bin(bytes), want) << bytes << " bytes";
  }
  std::vector<int64_t> latencies = {-5, 0, 1, 2, 3};
  for (uint64_t us : kLatencyBoundsUs) {
    for (int64_t d = -2; d <= 2; ++d) latencies.push_back(static_cast<int64_t>(us * 1000) + d);
  }
  for (int w = 1; w < 63; ++w) {
    for (int64_t d = -1; d <= 1; ++d) latencies.push_back((int64_t{1} << w) + d);
  }
  latencies.push_back(INT64_MAX);
  for (int64_t ns : latencies) {
    size_t want = 0;
    while (want < kLatencyBoundsUs.size() && static_cast<int64_t>(kLatencyBoundsUs[want] * 1000) < ns) {
      ++want;
    }
    ASSERT_EQ(latency_bucket(ns), want) << ns << " ns";
  }
}

TEST(VolumeCollectorTest, RecordsOperationsBytesSizesAndLatencies) {
  VolumeCollector c;
  EXPECT_FALSE(c.active());
  // A 4 KiB read hit: frontend 3 us, cache 1.5 us.
  c.record_frontend(Direction::kRead, 4096, 3000, 0);
  c.record_source(Direction::kRead, Source::kCache, 4096, 4096, 1500);
  // A 600000-byte write: frontend and datastore 2.5 ms.
  c.record_frontend(Direction::kWrite, 600000, 2'500'000, 0);
  c.record_source(Direction::kWrite, Source::kDatastore, 600000, 600000, 2'400'000);
  EXPECT_TRUE(c.active());

  const IntervalMetrics& m = c.metrics();
  const size_t r = 0, w = 1;
  const auto fe = static_cast<size_t>(Source::kFrontend);
  const auto ca = static_cast<size_t>(Source::kCache);
  const auto ds = static_cast<size_t>(Source::kDatastore);
  EXPECT_EQ(m.operations[r][fe], 1u);
  EXPECT_EQ(m.operations[r][ca], 1u);
  EXPECT_EQ(m.operations[r][ds], 0u);
  EXPECT_EQ(m.bytes[w][ds], 600000u);
  EXPECT_EQ(m.size[r].bucket_counts[size_bin(4096)], 1u);
  EXPECT_EQ(m.size[w].bucket_counts[kSizeBinCount - 1], 1u);
  EXPECT_EQ(m.size[w].sum, 600000.0);
  EXPECT_EQ(m.size_bin_bytes[w][kSizeBinCount - 1], 600000u);

  const auto& cache_lat = m.latency[r][ca][size_bin(4096)];
  EXPECT_EQ(cache_lat.count, 1u);
  EXPECT_EQ(cache_lat.bucket_counts[1], 1u);  // 1.5 us -> (1, 2]
  EXPECT_DOUBLE_EQ(cache_lat.sum, 1.5);
  const auto& write_lat = m.latency[w][fe][kSizeBinCount - 1];
  EXPECT_EQ(write_lat.bucket_counts[11], 1u);  // 2500 us -> (2000, 5000]
  EXPECT_DOUBLE_EQ(write_lat.min, 2500.0);
  EXPECT_DOUBLE_EQ(write_lat.max, 2500.0);
}

TEST(VolumeCollectorTest, CacheSumsAreDeltasAndGaugesAreLevels) {
  VolumeCollector c;
  CacheTotals t;
  t.hit_blocks = {10, 2};
  t.miss_blocks = {5, 1};
  t.population_bytes = 6 * 4096;
  t.occupancy_bytes = 6 * 4096;
  t.capacity_bytes = 1 << 20;
  c.record_frontend(Direction::kRead, 4096, 1000, 0);
  c.close_interval(t);
  EXPECT_EQ(c.metrics().cache.hit_blocks[0], 10u);
  EXPECT_EQ(c.metrics().cache.population_bytes, 6u * 4096);
  c.reset();
  EXPECT_FALSE(c.active());
  EXPECT_EQ(c.metrics().operations[0][0], 0u);

  t.hit_blocks = {15, 2};
  t.eviction_bytes = 4096;
  c.record_frontend(Direction::kRead, 4096, 1000, 0);
  c.close_interval(t);
  EXPECT_EQ(c.metrics().cache.hit_blocks[0], 5u);
  EXPECT_EQ(c.metrics().cache.hit_blocks[1], 0u);
  EXPECT_EQ(c.metrics().cache.miss_blocks[0], 0u);
  EXPECT_EQ(c.metrics().cache.population_bytes, 0u);
  EXPECT_EQ(c.metrics().cache.eviction_bytes, 4096u);
  EXPECT_EQ(c.metrics().cache.occupancy_bytes, 6u * 4096);
  EXPECT_EQ(c.metrics().cache.capacity_bytes, 1u << 20);
}

TEST(VolumeCollectorTest, KeepsTheBusiestSecondOfTheInterval) {
  VolumeCollector c;
  // Second 100: 3 reads of 4 KiB at 100 us; second 101: 5 reads of 8 KiB at 1 ms and
  // 1 write; second 103: 1 read of 1 MiB at 20 ms (the slowest second, not the busiest).
  for (int i = 0; i < 3; ++i) c.record_frontend(Direction::kRead, 4096, 100'000, 100'000'000 + i);
  for (int i = 0; i < 5; ++i) c.record_frontend(Direction::kRead, 8192, 1'000'000, 101'500'000 + i);
  c.record_frontend(Direction::kWrite, 4096, 50'000, 101'600'000);
  c.record_frontend(Direction::kRead, 1 << 20, 20'000'000, 103'999'999);
  c.close_interval(CacheTotals{});
  const PeakSecond& read = c.metrics().peak[0];
  EXPECT_EQ(read.operations, 5u);
  EXPECT_EQ(read.bytes, 1u << 20);
  EXPECT_DOUBLE_EQ(read.mean_latency_us, 20'000.0);
  EXPECT_EQ(c.metrics().peak[1].operations, 1u);
  EXPECT_DOUBLE_EQ(c.metrics().peak[1].mean_latency_us, 50.0);
  c.reset();
  EXPECT_EQ(c.metrics().peak[0].operations, 0u);
}

TEST(ExponentialHistogramTest, MapsValuesToBase2BucketsAtScale3) {
  // Bucket i holds (2^(i/8), 2^((i+1)/8)]: 1 closes bucket -1, 2 closes bucket 7.
  EXPECT_EQ(ExponentialHistogram::index_of(1.0), -1);
  EXPECT_EQ(ExponentialHistogram::index_of(1.0001), 0);
  EXPECT_EQ(ExponentialHistogram::index_of(2.0), 7);
  EXPECT_EQ(ExponentialHistogram::index_of(1024.0), 79);
  EXPECT_EQ(ExponentialHistogram::index_of(1500.0), 84);  // 2^(84/8) = 1448 < 1500 <= 2^(85/8) = 1579
  ExponentialHistogram h;
  h.add(1500.0);
  h.add(0.0);
  h.add(1e12);  // beyond the last bucket: counted there
  EXPECT_EQ(h.count, 3u);
  EXPECT_EQ(h.zero_count, 1u);
  EXPECT_EQ(h.counts[84 - ExponentialHistogram::kMinIndex], 1u);
  EXPECT_EQ(h.counts[ExponentialHistogram::kBuckets - 1], 1u);
  EXPECT_DOUBLE_EQ(h.max, 1e12);
}

}  // namespace
}  // namespace tierwise::telemetry
