// Telemetry: vscsiStats ioLength bins, latency buckets, per-interval collection,
// the vscsiStats seek distance, outstanding I/O and interarrival families.
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
#include "telemetry/vscsi_bounds.hpp"

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

// The first bucket whose bound is >= value, else the last: the rule of
// proto/METRICS.md, by a plain scan.
template <size_t N>
size_t scan_bucket(const std::array<int64_t, N>& bounds, int64_t value, int64_t scale = 1) {
  size_t i = 0;
  while (i < N && bounds[i] * scale < value) ++i;
  return i;
}

TEST(VscsiBoundsTest, TheContractsBucketLimits) {
  ASSERT_EQ(kSeekBucketCount, 34u);
  ASSERT_EQ(kOutstandingBucketCount, 13u);
  ASSERT_EQ(kInterarrivalBucketCount, 11u);
  EXPECT_EQ(kSeekDistanceBounds.front(), -500000);
  EXPECT_EQ(kSeekDistanceBounds[16], 0);
  EXPECT_EQ(kSeekDistanceBounds[17], 1);
  EXPECT_EQ(kSeekDistanceBounds.back(), 500000);
  EXPECT_TRUE(std::is_sorted(kSeekDistanceBounds.begin(), kSeekDistanceBounds.end()));
  EXPECT_TRUE(std::is_sorted(kOutstandingBounds.begin(), kOutstandingBounds.end()));
  EXPECT_TRUE(std::is_sorted(kInterarrivalBoundsUs.begin(), kInterarrivalBoundsUs.end()));
}

// Bounds are inclusive upper limits; above the last bound is the extra bucket.
TEST(VscsiBoundsTest, ValuesAtAndAroundTheEdges) {
  // Seek distance: the negative edges too.
  EXPECT_EQ(seek_bucket(INT64_MIN / 2), 0u);
  EXPECT_EQ(seek_bucket(-500001), 0u);
  EXPECT_EQ(seek_bucket(-500000), 0u);   // equal to the first bound
  EXPECT_EQ(seek_bucket(-499999), 1u);   // just above it
  EXPECT_EQ(seek_bucket(-2), 14u);
  EXPECT_EQ(seek_bucket(-1), 15u);
  EXPECT_EQ(seek_bucket(0), 16u);
  EXPECT_EQ(seek_bucket(1), 17u);        // bucket "1": sequential
  EXPECT_EQ(seek_bucket(2), 18u);
  EXPECT_EQ(seek_bucket(3), 19u);        // (2, 4]
  EXPECT_EQ(seek_bucket(128), 25u);
  EXPECT_EQ(seek_bucket(129), 26u);      // (128, 500]
  EXPECT_EQ(seek_bucket(500000), 32u);   // equal to the last bound
  EXPECT_EQ(seek_bucket(500001), 33u);   // beyond it: the extra bucket
  EXPECT_EQ(seek_bucket(INT64_MAX), 33u);
  // Outstanding I/Os.
  EXPECT_EQ(outstanding_bucket(1), 0u);
  EXPECT_EQ(outstanding_bucket(2), 1u);
  EXPECT_EQ(outstanding_bucket(3), 2u);  // (2, 4]
  EXPECT_EQ(outstanding_bucket(32), 10u);
  EXPECT_EQ(outstanding_bucket(33), 11u);
  EXPECT_EQ(outstanding_bucket(64), 11u);
  EXPECT_EQ(outstanding_bucket(65), 12u);
  // Interarrival, nanoseconds against microsecond bounds.
  EXPECT_EQ(interarrival_bucket(0), 0u);
  EXPECT_EQ(interarrival_bucket(1000), 0u);      // 1 us
  EXPECT_EQ(interarrival_bucket(1001), 1u);      // just above 1 us
  EXPECT_EQ(interarrival_bucket(10'000), 1u);
  EXPECT_EQ(interarrival_bucket(100'000'000), 9u);   // 100000 us, the last bound
  EXPECT_EQ(interarrival_bucket(100'000'001), 10u);  // beyond it
  EXPECT_EQ(interarrival_bucket(INT64_MAX), 10u);
}

// The branch-free search equals the scan around every bound and on random values.
TEST(VscsiBoundsTest, TheSearchEqualsAScanOfTheBounds) {
  std::vector<int64_t> values = {INT64_MIN, INT64_MIN / 2, -1, 0, 1, INT64_MAX / 2, INT64_MAX};
  for (const int64_t b : kSeekDistanceBounds) {
    for (int64_t d = -2; d <= 2; ++d) values.push_back(b + d);
  }
  for (const int64_t b : kOutstandingBounds) {
    for (int64_t d = -2; d <= 2; ++d) values.push_back(b + d);
  }
  for (const int64_t b : kInterarrivalBoundsUs) {
    for (int64_t d = -2; d <= 2; ++d) values.push_back(b * 1000 + d);
  }
  std::mt19937_64 rng(11);
  for (int i = 0; i < 100'000; ++i) {
    const auto v = static_cast<int64_t>(rng() >> (1 + rng() % 63));
    values.push_back(v);
    values.push_back(-v);
  }
  for (const int64_t v : values) {
    ASSERT_EQ(seek_bucket(v), scan_bucket(kSeekDistanceBounds, v)) << v;
    ASSERT_EQ(outstanding_bucket(v), scan_bucket(kOutstandingBounds, v)) << v;
    ASSERT_EQ(interarrival_bucket(v), scan_bucket(kInterarrivalBoundsUs, v, 1000)) << v;
  }
}

constexpr size_t kRead = 0, kWrite = 1;

// A sequential stream (consecutive 8-sector reads) lands wholly in bucket "1"
// of both seek families; the first command counts in no family but
// outstanding, and the stream's interarrival is its spacing.
TEST(VscsiCollectorTest, ASequentialStreamIsAllInBucketOne) {
  VolumeCollector c;
  const int n = 100;
  for (int i = 0; i < n; ++i) {
    const auto first = static_cast<uint64_t>(8 * i + 4096);
    c.record_issue(Direction::kRead, first, first + 7, int64_t{1'000'000'000} + i * 250'000);  // every 250 us
    c.record_outstanding(Direction::kRead, 1, 1);
  }
  EXPECT_TRUE(c.active());
  c.close_interval(CacheTotals{});
  const IntervalMetrics& m = c.metrics();
  const size_t one = seek_bucket(1);
  for (const auto* h : {&m.seek_distance[kAllDirections], &m.seek_distance[kRead], &m.seek_distance_closest}) {
    EXPECT_EQ(h->count, n - 1u);
    EXPECT_EQ(h->bucket_counts[one], n - 1u);
    EXPECT_EQ(h->min, 1.0);
    EXPECT_EQ(h->max, 1.0);
    EXPECT_EQ(h->sum, 0.0) << "no sum on signed values";
  }
  EXPECT_EQ(m.seek_distance[kWrite].count, 0u);
  for (const size_t v : {kRead, kAllDirections}) {
    EXPECT_EQ(m.interarrival[v].count, n - 1u);
    EXPECT_EQ(m.interarrival[v].bucket_counts[interarrival_bucket(250'000)], n - 1u);  // (100, 500] us
    EXPECT_DOUBLE_EQ(m.interarrival[v].sum, 250.0 * (n - 1));
    EXPECT_EQ(m.outstanding[v].count, static_cast<uint64_t>(n));
    EXPECT_EQ(m.outstanding[v].bucket_counts[0], static_cast<uint64_t>(n));
    EXPECT_DOUBLE_EQ(m.outstanding[v].sum, n);
  }
  EXPECT_EQ(m.interarrival[kWrite].count, 0u);
  EXPECT_EQ(m.outstanding[kWrite].count, 0u);
}

// Directions: `read` from the previous read, `write` from the previous write,
// `all` from the previous command; the state crosses the interval's close.
TEST(VscsiCollectorTest, EachDirectionFromItsPreviousCommandAcrossIntervals) {
  VolumeCollector c;
  c.record_issue(Direction::kRead, 100, 107, 0);       // first: nothing
  c.record_issue(Direction::kWrite, 200, 215, 5'000);  // all: 200 - 107, 5 us; first write
  c.close_interval(CacheTotals{});
  const IntervalMetrics& m = c.metrics();
  EXPECT_EQ(m.seek_distance[kAllDirections].count, 1u);
  EXPECT_EQ(m.seek_distance[kAllDirections].min, 93.0);
  EXPECT_EQ(m.seek_distance[kRead].count, 0u);
  EXPECT_EQ(m.seek_distance[kWrite].count, 0u);
  EXPECT_EQ(m.interarrival[kAllDirections].bucket_counts[1], 1u);  // 5 us: (1, 10]
  c.reset();
  c.record_issue(Direction::kRead, 50, 50, 2'005'000);  // all: 50 - 215, 2000 us; read: 50 - 107, 2005 us
  c.record_issue(Direction::kWrite, 216, 223, 2'005'000);  // write: 216 - 215 = 1, 2000 us; all: 166, 0 us
  c.close_interval(CacheTotals{});
  EXPECT_EQ(m.seek_distance[kAllDirections].count, 2u);
  EXPECT_EQ(m.seek_distance[kAllDirections].min, -165.0);
  EXPECT_EQ(m.seek_distance[kAllDirections].max, 166.0);
  EXPECT_EQ(m.seek_distance[kRead].min, -57.0);
  EXPECT_EQ(m.seek_distance[kRead].bucket_counts[seek_bucket(-57)], 1u);  // (-64, -32]
  EXPECT_EQ(m.seek_distance[kWrite].bucket_counts[seek_bucket(1)], 1u);
  EXPECT_EQ(m.interarrival[kAllDirections].bucket_counts[0], 1u);  // the same instant
  EXPECT_EQ(m.interarrival[kRead].bucket_counts[interarrival_bucket(2'005'000)], 1u);
  EXPECT_DOUBLE_EQ(m.interarrival[kRead].max, 2005.0);
  EXPECT_EQ(m.interarrival[kWrite].bucket_counts[interarrival_bucket(2'000'000)], 1u);
}

// Closest of 16: a command right after one 10 commands back and far from the
// last lands in bucket "1"; one 17 back is out of the window; between d and
// -d the forward distance wins.
TEST(VscsiCollectorTest, ClosestOfTheLast16Commands) {
  VolumeCollector c;
  int64_t t = 0;
  auto issue = [&](uint64_t first, uint64_t last) { c.record_issue(Direction::kWrite, first, last, t += 1000); };
  issue(1000, 1007);                                          // 10 commands back from the 11th
  for (uint64_t i = 0; i < 9; ++i) issue(10'000'000 + i * 100'000, 10'000'000 + i * 100'000 + 7);
  issue(1008, 1015);  // 1008 - 1007 = 1; far from the last (10,800,007)
  c.close_interval(CacheTotals{});
  const IntervalMetrics& m = c.metrics();
  EXPECT_EQ(m.seek_distance_closest.count, 10u);
  EXPECT_EQ(m.seek_distance_closest.bucket_counts[seek_bucket(1)], 1u);
  EXPECT_EQ(m.seek_distance[kAllDirections].bucket_counts[seek_bucket(1)], 0u);
  EXPECT_EQ(m.seek_distance[kAllDirections].bucket_counts[0], 1u);  // 1008 - 10,800,007: below -500000
  c.reset();

  // 16 far commands after it: the one ending at 1015 is 17 back from the next.
  for (uint64_t i = 0; i < 16; ++i) issue(50'000'000 + i * 100'000, 50'000'000 + i * 100'000 + 7);
  issue(1016, 1023);
  c.close_interval(CacheTotals{});
  EXPECT_EQ(m.seek_distance_closest.bucket_counts[seek_bucket(1)], 0u);
  EXPECT_EQ(m.seek_distance_closest.count, 17u);
  // The closest of the last 16 to 1016 is the first far one: 1016 - 50,000,007.
  EXPECT_EQ(m.seek_distance_closest.min, -49'998'991.0);
  c.reset();

  // Ties: last sectors 5 before and 5 after the next first sector.
  VolumeCollector tie;
  tie.record_issue(Direction::kRead, 90, 95, 0);    // 100 - 95 = 5
  tie.record_issue(Direction::kRead, 100, 105, 0);  // ends at 105: 100 - 105 = -5
  tie.record_issue(Direction::kRead, 100, 100, 0);  // 100 - 105 = -5, 100 - 95 = +5: +5
  tie.close_interval(CacheTotals{});
  EXPECT_EQ(tie.metrics().seek_distance_closest.min, 5.0);
  EXPECT_EQ(tie.metrics().seek_distance_closest.max, 5.0);
  EXPECT_EQ(tie.metrics().seek_distance_closest.bucket_counts[seek_bucket(5)], 2u);
}

// Outstanding: the count of every direction goes to `all`, the direction's own
// count to its point.
TEST(VscsiCollectorTest, OutstandingByDirection) {
  VolumeCollector c;
  c.record_outstanding(Direction::kRead, 1, 1);
  c.record_outstanding(Direction::kWrite, 2, 1);
  c.record_outstanding(Direction::kRead, 3, 2);
  c.record_outstanding(Direction::kRead, 70, 40);
  c.close_interval(CacheTotals{});
  const IntervalMetrics& m = c.metrics();
  EXPECT_EQ(m.outstanding[kAllDirections].count, 4u);
  EXPECT_EQ(m.outstanding[kAllDirections].bucket_counts[0], 1u);
  EXPECT_EQ(m.outstanding[kAllDirections].bucket_counts[1], 1u);
  EXPECT_EQ(m.outstanding[kAllDirections].bucket_counts[2], 1u);
  EXPECT_EQ(m.outstanding[kAllDirections].bucket_counts[12], 1u);  // above 64
  EXPECT_EQ(m.outstanding[kRead].count, 3u);
  EXPECT_EQ(m.outstanding[kRead].bucket_counts[outstanding_bucket(40)], 1u);  // (32, 64]
  EXPECT_DOUBLE_EQ(m.outstanding[kRead].sum, 43.0);
  EXPECT_EQ(m.outstanding[kWrite].bucket_counts[0], 1u);
  EXPECT_EQ(m.seek_distance[kAllDirections].count, 0u);
}

TEST(AlignmentTest, AMisaligned4KiBCommandSpansTwoBlocks) {
  // 4 KiB at sector 8 (aligned): one block; at sector 9 (512 bytes in): two.
  EXPECT_EQ(command_alignment(8, 15).offset_sectors, 0u);
  EXPECT_EQ(command_alignment(8, 15).blocks_issued, 1u);
  EXPECT_EQ(command_alignment(9, 16).offset_sectors, 1u);
  EXPECT_EQ(command_alignment(9, 16).blocks_issued, 2u);
  EXPECT_EQ(command_alignment(9, 16).blocks_aligned, 1u);
  EXPECT_EQ(command_alignment(9, 16).bytes, 4096u);
  // 512 bytes anywhere inside a block: one block either way.
  EXPECT_EQ(command_alignment(13, 13).blocks_issued, 1u);
  EXPECT_EQ(command_alignment(13, 13).blocks_aligned, 1u);
  // 63-sector MBR start, 64 KiB: 17 blocks instead of 16.
  EXPECT_EQ(command_alignment(63, 63 + 127).offset_sectors, 7u);
  EXPECT_EQ(command_alignment(63, 63 + 127).blocks_issued, 17u);
  EXPECT_EQ(command_alignment(63, 63 + 127).blocks_aligned, 16u);
}

TEST(AlignmentTest, TheCollectorCountsWhereCommandsStartAndTheBlocksTheySpan) {
  VolumeCollector c;
  c.record_issue(Direction::kRead, 8, 15, 0);    // aligned 4 KiB
  c.record_issue(Direction::kRead, 9, 16, 0);    // 1 sector in, 4 KiB: 2 blocks
  c.record_issue(Direction::kWrite, 12, 19, 0);  // 4 sectors in, 4 KiB: 2 blocks
  c.record_issue(Direction::kWrite, 7, 7, 0);    // 7 sectors in, 512 bytes: 1 block
  c.close_interval(CacheTotals{});
  const IntervalMetrics& m = c.metrics();
  EXPECT_EQ(m.alignment[kAllDirections].count, 4u);
  EXPECT_EQ(m.alignment[kRead].bucket_counts[0], 1u);
  EXPECT_EQ(m.alignment[kRead].bucket_counts[1], 1u);
  EXPECT_EQ(m.alignment[kWrite].bucket_counts[4], 1u);
  EXPECT_EQ(m.alignment[kWrite].bucket_counts[7], 1u);
  EXPECT_DOUBLE_EQ(m.alignment[kAllDirections].sum, 12.0);
  EXPECT_EQ(m.misaligned_bytes[kRead], 4096u);
  EXPECT_EQ(m.misaligned_bytes[kWrite], 4096u + 512u);
  EXPECT_EQ(m.alignment_blocks[kRead][static_cast<size_t>(AlignmentLayout::kIssued)], 3u);
  EXPECT_EQ(m.alignment_blocks[kRead][static_cast<size_t>(AlignmentLayout::kAligned)], 2u);
  EXPECT_EQ(m.alignment_blocks[kWrite][static_cast<size_t>(AlignmentLayout::kIssued)], 3u);
  EXPECT_EQ(m.alignment_blocks[kWrite][static_cast<size_t>(AlignmentLayout::kAligned)], 2u);
  c.reset();
  c.close_interval(CacheTotals{});
  EXPECT_EQ(c.metrics().alignment[kAllDirections].count, 0u);
  EXPECT_EQ(c.metrics().misaligned_bytes[kWrite], 0u);
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
