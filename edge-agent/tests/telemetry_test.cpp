// Telemetry: vscsiStats ioLength bins, latency buckets, per-interval collection.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "telemetry/io_bins.hpp"
#include "telemetry/latency_buckets.hpp"
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

// The per-I/O lookups (the table by sector count, the latency cells) agree
// with a plain search of the bounds for every size up to past the last bound,
// and with latency_bucket() and ExponentialHistogram::bucket_of() for
// latencies around every bound of both histograms, every power of two, every
// value below 70 us and random values up to 2^63.
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
  for (int k = ExponentialHistogram::kMinIndex - 8;
       k <= ExponentialHistogram::kMinIndex + static_cast<int>(ExponentialHistogram::kBuckets) + 8; ++k) {
    const auto bound = static_cast<int64_t>(1000.0 * std::exp2(k / 8.0));
    for (int64_t d = -2; d <= 2; ++d) latencies.push_back(bound + d);
  }
  for (int64_t ns = 1; ns <= 70'000; ++ns) latencies.push_back(ns);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200'000; ++i) latencies.push_back(static_cast<int64_t>(rng() >> (1 + rng() % 63)));
  for (int64_t ns : latencies) {
    if (ns <= 0) continue;
    const LatencyBuckets b = latency_buckets(ns);
    ASSERT_EQ(b.explicit_bucket, latency_bucket(ns)) << ns << " ns";
    ASSERT_EQ(b.exponential, ExponentialHistogram::bucket_of(static_cast<double>(ns) / 1000.0)) << ns << " ns";
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
  c.close_interval(CacheTotals{});

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

// The collector against the definition of every metric, recorded value by
// value (Histogram::add and ExponentialHistogram::add with the latency in
// microseconds, a map of seconds for the peaks), over a fixed stream of mixed
// I/Os: sizes across the ioLength bins, hits, misses and partial hits, zero
// and very long latencies, two intervals. Counts must be equal; sums equal to
// rounding (the collector sums integer nanoseconds).
TEST(VolumeCollectorTest, MatchesTheReferenceDefinitionOnAFixedStream) {
  struct Io {
    Direction direction;
    uint32_t length;
    int64_t latency_ns, completed_us;
    uint32_t cache_bytes;
    int64_t cache_ns;
    uint32_t datastore_bytes;
    int64_t datastore_ns;
  };
  std::mt19937_64 rng(2026);
  const uint32_t kLengths[] = {512, 4096, 4096, 8192, 12288, 65536, 131072, 600000, 1 << 20};
  VolumeCollector c;
  for (int interval = 0; interval < 2; ++interval) {
    IntervalMetrics want;
    std::map<std::pair<size_t, int64_t>, PeakSecond> seconds;
    int64_t now_us = 1'700'000'000'000'000 + interval * 10'000'000;
    for (int i = 0; i < 20'000; ++i) {
      Io io{};
      io.direction = rng() % 3 == 0 ? Direction::kWrite : Direction::kRead;
      io.length = kLengths[rng() % std::size(kLengths)];
      io.latency_ns = rng() % 50 == 0 ? 0 : static_cast<int64_t>(std::exp2(6 + (rng() % 2400) / 100.0));
      now_us += static_cast<int64_t>(rng() % 1500);
      io.completed_us = now_us;
      const uint32_t cached = static_cast<uint32_t>(rng() % 3) * (io.length / 2);
      io.cache_bytes = cached;
      io.cache_ns = io.latency_ns / 3;
      io.datastore_bytes = io.length - cached;
      io.datastore_ns = io.latency_ns - 100;

      c.record_frontend(io.direction, io.length, io.latency_ns, io.completed_us);
      if (io.cache_bytes > 0) {
        c.record_source(io.direction, Source::kCache, io.length, io.cache_bytes, io.cache_ns);
      }
      if (io.datastore_bytes > 0) {
        c.record_source(io.direction, Source::kDatastore, io.length, io.datastore_bytes, io.datastore_ns);
      }

      const auto d = static_cast<size_t>(io.direction);
      const size_t bin = size_bin(io.length);
      auto record = [&](Source source, uint32_t bytes, int64_t ns) {
        const auto s = static_cast<size_t>(source);
        ++want.operations[d][s];
        want.bytes[d][s] += bytes;
        want.latency[d][s][bin].add(latency_bucket(ns), static_cast<double>(ns) / 1000.0);
        want.latency_exponential[d][s].add(static_cast<double>(ns) / 1000.0);
      };
      record(Source::kFrontend, io.length, io.latency_ns);
      if (io.cache_bytes > 0) record(Source::kCache, io.cache_bytes, io.cache_ns);
      if (io.datastore_bytes > 0) record(Source::kDatastore, io.datastore_bytes, io.datastore_ns);
      want.size[d].add(bin, io.length);
      want.size_bin_bytes[d][bin] += io.length;
      PeakSecond& second = seconds[{d, io.completed_us / 1'000'000}];
      ++second.operations;
      second.bytes += io.length;
      second.mean_latency_us += static_cast<double>(io.latency_ns) / 1000.0;
    }
    for (const auto& [key, second] : seconds) {
      PeakSecond& peak = want.peak[key.first];
      peak.operations = std::max(peak.operations, second.operations);
      peak.bytes = std::max(peak.bytes, second.bytes);
      peak.mean_latency_us = std::max(peak.mean_latency_us, second.mean_latency_us / second.operations);
    }
    c.close_interval(CacheTotals{});
    const IntervalMetrics& got = c.metrics();
    auto same_sum = [](double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); };
    for (size_t d = 0; d < kDirectionCount; ++d) {
      SCOPED_TRACE("direction " + std::to_string(d) + ", interval " + std::to_string(interval));
      EXPECT_EQ(got.size[d].bucket_counts, want.size[d].bucket_counts);
      EXPECT_EQ(got.size[d].count, want.size[d].count);
      EXPECT_EQ(got.size[d].sum, want.size[d].sum);
      EXPECT_EQ(got.size[d].min, want.size[d].min);
      EXPECT_EQ(got.size[d].max, want.size[d].max);
      for (size_t bin = 0; bin < kSizeBinCount; ++bin) {
        EXPECT_EQ(got.size_bin_bytes[d][bin], want.size_bin_bytes[d][bin]);
      }
      EXPECT_EQ(got.peak[d].operations, want.peak[d].operations);
      EXPECT_EQ(got.peak[d].bytes, want.peak[d].bytes);
      EXPECT_TRUE(same_sum(got.peak[d].mean_latency_us, want.peak[d].mean_latency_us));
      for (size_t s = 0; s < kSourceCount; ++s) {
        SCOPED_TRACE("source " + std::to_string(s));
        EXPECT_EQ(got.operations[d][s], want.operations[d][s]);
        EXPECT_EQ(got.bytes[d][s], want.bytes[d][s]);
        for (size_t bin = 0; bin < kSizeBinCount; ++bin) {
          const auto& g = got.latency[d][s][bin];
          const auto& w = want.latency[d][s][bin];
          EXPECT_EQ(g.bucket_counts, w.bucket_counts) << bin;
          EXPECT_EQ(g.count, w.count) << bin;
          EXPECT_TRUE(same_sum(g.sum, w.sum)) << bin << ": " << g.sum << " vs " << w.sum;
          EXPECT_EQ(g.min, w.min) << bin;
          EXPECT_EQ(g.max, w.max) << bin;
        }
        const auto& g = got.latency_exponential[d][s];
        const auto& w = want.latency_exponential[d][s];
        EXPECT_EQ(g.counts, w.counts);
        EXPECT_EQ(g.zero_count, w.zero_count);
        EXPECT_EQ(g.count, w.count);
        EXPECT_TRUE(same_sum(g.sum, w.sum)) << g.sum << " vs " << w.sum;
        EXPECT_EQ(g.min, w.min);
        EXPECT_EQ(g.max, w.max);
      }
    }
    EXPECT_GT(want.operations[0][static_cast<size_t>(Source::kCache)], 1000u);
    EXPECT_GT(want.latency_exponential[1][0].zero_count, 10u);
    c.reset();
  }
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

TEST(ExponentialHistogramTest, IndexFromTheBitsEqualsTheLogarithmDefinition) {
  // The OpenTelemetry definition, index = ceil(log2(value) * 2^scale) - 1, with
  // frexp and the octave bounds 2^(k/8) as doubles compared in floating point.
  constexpr double kBounds[8] = {1.0, 1.0905077326652577, 1.189207115002721, 1.2968395546510096,
                                 1.4142135623730951, 1.5422108254079407, 1.6817928305074290, 1.8340080864093424};
  const auto reference = [&](double value) {
    int e = 0;
    const double m = 2 * std::frexp(value, &e);
    int k = 0;
    while (k < 8 && kBounds[k] < m) ++k;
    return ((e - 1) << 3) + k - 1;
  };
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> log2_value(-10.0, 40.0);
  for (int i = 0; i < 100000; ++i) {
    const double value = std::exp2(log2_value(rng));
    ASSERT_EQ(ExponentialHistogram::index_of(value), reference(value)) << value;
  }
  for (int k = -80; k <= 240; ++k) {  // every bound, and its neighbours
    const double bound = std::ldexp(kBounds[((k % 8) + 8) % 8], k >= 0 ? k / 8 : -((-k + 7) / 8));
    for (const double v : {bound, std::nextafter(bound, 0.0), std::nextafter(bound, 1e300)}) {
      ASSERT_EQ(ExponentialHistogram::index_of(v), reference(v)) << v;
    }
  }
}

}  // namespace
}  // namespace tierwise::telemetry
