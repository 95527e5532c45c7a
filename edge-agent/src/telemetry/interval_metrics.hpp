// The metrics of one volume over one interval (proto/METRICS.md), in fixed
// arrays: recording an I/O touches a few counters and allocates nothing.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>

#include "telemetry/alignment.hpp"
#include "telemetry/cpu_usage.hpp"
#include "telemetry/io_bins.hpp"
#include "telemetry/vscsi_bounds.hpp"

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

// The 52-bit fraction field of a double (IEEE 754 binary64).
inline constexpr uint64_t kFractionMask = (uint64_t{1} << 52) - 1;

// The fractions of the doubles nearest to 2^(k/8), k = 0..7: the lower bounds
// of the 8 buckets of one octave at scale 3 (2^0 has fraction 0).
inline constexpr std::array<uint64_t, 8> kOctaveFractionsScale3 = {
    std::bit_cast<uint64_t>(1.0) & kFractionMask,
    std::bit_cast<uint64_t>(1.0905077326652577) & kFractionMask,
    std::bit_cast<uint64_t>(1.189207115002721) & kFractionMask,
    std::bit_cast<uint64_t>(1.2968395546510096) & kFractionMask,
    std::bit_cast<uint64_t>(1.4142135623730951) & kFractionMask,
    std::bit_cast<uint64_t>(1.5422108254079407) & kFractionMask,
    std::bit_cast<uint64_t>(1.6817928305074290) & kFractionMask,
    std::bit_cast<uint64_t>(1.8340080864093424) & kFractionMask};

// A base-2 exponential histogram at a fixed scale (OTLP
// ExponentialHistogramDataPoint; OpenTelemetry metrics data model,
// "ExponentialHistogram"): bucket i counts values in (base^i, base^(i+1)]
// with base = 2^(2^-kScale). Scale 3: base 1.0905, so a percentile read from
// a bucket is within 4.4 % of the value. The index range is fixed (no
// rescaling): 0.06 µs to 268 s when values are microseconds; values beyond
// either end count in the end bucket, values <= 0 in zero_count.
struct ExponentialHistogram {
  static constexpr int kScale = 3;  // index_of reads kOctaveFractionsScale3
  static constexpr int kMinIndex = -32;        // (2^-4, 2^-3.875]
  static constexpr size_t kBuckets = 256;      // up to index 223: (2^27.875, 2^28]
  std::array<uint64_t, kBuckets> counts{};     // counts[i - kMinIndex]
  uint64_t zero_count = 0;
  uint64_t count = 0;
  double sum = 0;
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();

  // The bucket index of `value` > 0 at kScale (the spec's exact mapping:
  // powers of two fall in the bucket they bound from above). Per I/O, so no
  // libm call and no search: value = m * 2^e with m in [1, 2) is read from the
  // IEEE 754 bits, and ceil(8 log2 m) is how many of the octave's bounds
  // 2^(k/8) (k = 0..7, as 52-bit fractions of m) lie below m: the fraction's
  // top 5 bits pick one of 32 equal cells, which holds at most one bound
  // (neighbouring bounds are more than 1/32 apart), so the count is the
  // bounds of the cells before plus one comparison. Values below the normal
  // range (< 2^-1022) map below kMinIndex, where bucket_of() clamps them.
  static constexpr int index_of(double value) {
    const auto bits = std::bit_cast<uint64_t>(value);
    const int exponent = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
    if (exponent == -1023) return kMinIndex - 1;
    const uint64_t fraction = bits & kFractionMask;
    const OctaveCell& cell = kOctaveCells[fraction >> (52 - kCellBits)];
    const int k = cell.bounds_before + (cell.bound < fraction ? 1 : 0);
    return exponent * (1 << kScale) + k - 1;
  }

  // The position in `counts` of `value` > 0: index_of() clamped to the range.
  static constexpr size_t bucket_of(double value) {
    const int index = std::clamp(index_of(value), kMinIndex, kMinIndex + static_cast<int>(kBuckets) - 1);
    return static_cast<size_t>(index - kMinIndex);
  }

  void add(double value) {
    ++count;
    sum += value;
    if (value < min) min = value;
    if (value > max) max = value;
    if (value <= 0) {
      ++zero_count;
      return;
    }
    ++counts[bucket_of(value)];
  }

 private:
  static constexpr unsigned kCellBits = 5;
  // One of the 2^kCellBits equal parts of the fraction range: the octave
  // bounds below it, and the bound inside it (none: the largest fraction, so
  // the comparison never counts it).
  struct OctaveCell {
    int bounds_before;
    uint64_t bound;
  };
  static constexpr std::array<OctaveCell, size_t{1} << kCellBits> kOctaveCells = [] {
    std::array<OctaveCell, size_t{1} << kCellBits> cells{};
    for (size_t c = 0; c < cells.size(); ++c) {
      const uint64_t start = uint64_t{c} << (52 - kCellBits);
      const uint64_t end = start + (uint64_t{1} << (52 - kCellBits));
      cells[c].bound = kFractionMask;
      int inside = 0;
      for (const uint64_t bound : kOctaveFractionsScale3) {
        if (bound < start) ++cells[c].bounds_before;
        if (bound >= start && bound < end) {
          cells[c].bound = bound;
          ++inside;
        }
      }
      if (inside > 1) throw "two octave bounds in one cell: use more cell bits";

    }
    return cells;
  }();
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
  uint64_t destage_errors = 0;    // destage writes / datastore flushes the datastore failed
  uint64_t tier_errors = 0;       // tier requests that failed (the first disables the tier)
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
  uint64_t destage_errors = 0;
  uint64_t tier_errors = 0;
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
  // The vscsiStats families (proto/METRICS.md), by direction view (read,
  // write, kAllDirections), counted when commands are issued:
  // tierwise.io.seek_distance (sectors; sum left 0: signed values, no `sum`
  // is exported), tierwise.io.seek_distance.closest (all directions only),
  // tierwise.io.outstanding (I/Os) and tierwise.io.interarrival (us).
  Histogram<kSeekBucketCount> seek_distance[kDirectionViewCount];
  Histogram<kSeekBucketCount> seek_distance_closest;
  Histogram<kOutstandingBucketCount> outstanding[kDirectionViewCount];
  Histogram<kInterarrivalBucketCount> interarrival[kDirectionViewCount];
  // tierwise.io.latency.vscsistats (us) by direction view: only imported
  // vscsiStats output fills it (the agent's own latency is `latency`).
  Histogram<kVscsiLatencyBucketCount> vscsi_latency[kDirectionViewCount];
  // Block alignment (telemetry/alignment.hpp), counted at issue:
  // tierwise.io.alignment by direction view (sectors into the 4 KiB block),
  // and by direction the bytes of the commands that start off a 4 KiB
  // boundary and the 4 KiB blocks the commands span, by AlignmentLayout.
  Histogram<kAlignmentBucketCount> alignment[kDirectionViewCount];
  uint64_t misaligned_bytes[kDirectionCount] = {};
  uint64_t alignment_blocks[kDirectionCount][kAlignmentLayoutCount] = {};
  CacheInterval cache;
  // system.cpu.time, system.cpu.logical.count and tierwise.consumer.cpu.time
  // (only `serve` measures them; default: not measured).
  CpuUsage cpu;
};

}  // namespace tierwise::telemetry
