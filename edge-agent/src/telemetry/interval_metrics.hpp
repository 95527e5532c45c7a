// The metrics of one volume over one interval (proto/METRICS.md), in fixed
// arrays: recording an I/O touches a few counters and allocates nothing.
#pragma once

#include <array>
#include <cstdint>
#include <limits>

#include "telemetry/io_bins.hpp"

namespace tierwise::telemetry {

// An explicit-bounds histogram (OTLP HistogramDataPoint): counts per bucket plus
// count, sum, min and max of the recorded values.
template <size_t Buckets>
struct Histogram {
  std::array<uint64_t, Buckets> bucket_counts{};
  uint64_t count = 0;
  double sum = 0;
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();

  void add(size_t bucket, double value) {
    ++bucket_counts[bucket];
    ++count;
    sum += value;
    if (value < min) min = value;
    if (value > max) max = value;
  }
};

// A base-2 exponential histogram at a fixed scale (OTLP
// ExponentialHistogramDataPoint; OpenTelemetry metrics data model,
// "ExponentialHistogram"): bucket i counts values in (base^i, base^(i+1)]
// with base = 2^(2^-kScale). Scale 3: base 1.0905, so a percentile read from
// a bucket is within 4.4 % of the value. The index range is fixed (no
// rescaling): 0.06 µs to 268 s when values are microseconds; values beyond
// either end count in the end bucket, values <= 0 in zero_count.
struct ExponentialHistogram {
  static constexpr int kScale = 3;
  static constexpr int kMinIndex = -32;        // (2^-4, 2^-3.875]
  static constexpr size_t kBuckets = 256;      // up to index 223: (2^27.875, 2^28]
  std::array<uint64_t, kBuckets> counts{};     // counts[i - kMinIndex]
  uint64_t zero_count = 0;
  uint64_t count = 0;
  double sum = 0;
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();

  // The bucket index of `value` > 0 at kScale (the spec's exact mapping:
  // powers of two fall in the bucket they bound from above).
  static int index_of(double value);
  void add(double value);
};

// The busiest second of an interval, by direction (internal resolution 1 s):
// the most front-end I/Os and bytes completed within one second, and the
// highest mean front-end latency of a second. The interval's sums hide these
// peaks; they are what an I/O storm looks like.
struct PeakSecond {
  uint64_t operations = 0;
  uint64_t bytes = 0;
  double mean_latency_us = 0;
};

// Cache counters of one interval. Sums are deltas over the interval; gauges are
// the values at its end. Blocks are 4 KiB.
struct CacheInterval {
  std::array<uint64_t, kDirectionCount> hit_blocks{};
  std::array<uint64_t, kDirectionCount> miss_blocks{};
  uint64_t population_bytes = 0;
  uint64_t eviction_bytes = 0;
  uint64_t destaged_bytes = 0;
  uint64_t occupancy_bytes = 0;  // gauge
  uint64_t capacity_bytes = 0;   // gauge
  uint64_t dirty_bytes = 0;      // gauge: 4 KiB blocks awaiting destage, in bytes
  // Write-back (docs/write-back.md):
  uint64_t backlog_bytes = 0;     // gauge: journal data bytes not yet reclaimed
  uint64_t journal_bytes = 0;     // record bytes written to the journal
  uint64_t replicated_bytes = 0;  // record bytes sent to each peer
  uint64_t fallbacks = 0;         // write-back -> write-through after a peer failure
  uint64_t destage_rate_limit_bytes_per_s = 0;  // gauge, 0: unlimited
  uint64_t healthy_peers = 0;     // gauge
  bool write_back = false;        // gauge: the mode at interval end
};

// Cumulative cache counters as a cache engine keeps them (since its start);
// CacheInterval holds their differences between two interval ends.
struct CacheTotals {
  std::array<uint64_t, kDirectionCount> hit_blocks{};
  std::array<uint64_t, kDirectionCount> miss_blocks{};
  uint64_t population_bytes = 0;
  uint64_t eviction_bytes = 0;
  uint64_t destaged_bytes = 0;
  uint64_t occupancy_bytes = 0;
  uint64_t capacity_bytes = 0;
  uint64_t dirty_bytes = 0;
  uint64_t backlog_bytes = 0;
  uint64_t journal_bytes = 0;
  uint64_t replicated_bytes = 0;
  uint64_t fallbacks = 0;
  uint64_t destage_rate_limit_bytes_per_s = 0;
  uint64_t healthy_peers = 0;
  bool write_back = false;
};

struct IntervalMetrics {
  // tierwise.io.operations / tierwise.io.bytes by [direction][source].
  uint64_t operations[kDirectionCount][kSourceCount] = {};
  uint64_t bytes[kDirectionCount][kSourceCount] = {};
  // tierwise.io.size: front-end I/O sizes by direction (values in bytes).
  Histogram<kSizeBinCount> size[kDirectionCount];
  // tierwise.io.size.bytes: front-end bytes by [direction][ioLength bin].
  uint64_t size_bin_bytes[kDirectionCount][kSizeBinCount] = {};
  // tierwise.io.latency by [direction][source][ioLength bin] (values in us).
  Histogram<kLatencyBucketCount> latency[kDirectionCount][kSourceCount][kSizeBinCount];
  // tierwise.io.latency.exponential by [direction][source] (values in us).
  ExponentialHistogram latency_exponential[kDirectionCount][kSourceCount];
  // tierwise.io.{operations,bytes,latency}.peak by direction.
  PeakSecond peak[kDirectionCount];
  CacheInterval cache;
};

}  // namespace tierwise::telemetry
