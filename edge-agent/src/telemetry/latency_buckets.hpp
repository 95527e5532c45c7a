// Both histogram buckets of one latency, from one table lookup: the explicit
// 1-2-5 bucket (latency_bucket(), io_bins.hpp) and the position in the
// exponential histogram (ExponentialHistogram::bucket_of() of the latency in
// microseconds, interval_metrics.hpp). Per I/O the collectors record every
// latency into both, so they compute the pair once, in integer arithmetic.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "telemetry/interval_metrics.hpp"
#include "telemetry/io_bins.hpp"

namespace tierwise::telemetry {

// A latency's bucket in each histogram: `explicit_bucket` in
// Histogram<kLatencyBucketCount>, `exponential` the position in
// ExponentialHistogram::counts (latencies > 0 only).
struct LatencyBuckets {
  size_t explicit_bucket;
  size_t exponential;
};

namespace detail {

/*
 * The table: a latency v > 0 in nanoseconds has bit width w (v in
 * [2^(w-1), 2^w)); its 5 bits after the leading one pick one of 32 equal cells
 * of that octave. Neighbouring bounds differ by a factor of at least 2
 * (explicit, 1-2-5) and 2^(1/8) = 1.09 (exponential, scale 3), and a cell
 * spans at most 1/32 of its octave's start, so a cell holds at most one bound
 * of each histogram: the bucket is the cell's bucket at its start, plus one if
 * v passed the bound inside. Below 32 ns (w < 6) a cell holds one value.
 * Octaves from w = kLastWidth on are past both histograms' last bounds (1 s,
 * 2^28 us = 268 s): every latency there is in both last buckets.
 */
inline constexpr unsigned kCellBits = 5;
inline constexpr unsigned kLastWidth = 40;  // 2^39 ns = 550 s

// The exponential position of v nanoseconds, as bucket_of() computes it.
constexpr size_t exponential_position(uint64_t v) {
  return ExponentialHistogram::bucket_of(static_cast<double>(v) / 1000.0);
}

struct LatencyCell {
  uint64_t explicit_bound;     // v > this: one explicit bucket further
  uint64_t exponential_bound;  // v >= this: one exponential position further
  uint8_t explicit_bucket;     // at the cell's first value
  uint16_t exponential;        // at the cell's first value
};

constexpr LatencyCell latency_cell(uint64_t first, uint64_t last) {
  LatencyCell c{std::numeric_limits<uint64_t>::max(), std::numeric_limits<uint64_t>::max(),
                static_cast<uint8_t>(latency_bucket(static_cast<int64_t>(first))),
                static_cast<uint16_t>(exponential_position(first))};
  for (const uint64_t bound : kLatencyBoundsNs) {
    if (bound >= first && bound < last) c.explicit_bound = bound;
  }
  if (exponential_position(last) > c.exponential + 1u) throw "two exponential bounds in one cell";
  if (exponential_position(last) != c.exponential) {
    uint64_t lo = first, hi = last;  // position(lo) == start, position(hi) > start
    while (hi - lo > 1) {
      const uint64_t mid = lo + (hi - lo) / 2;
      (exponential_position(mid) == c.exponential ? lo : hi) = mid;
    }
    c.exponential_bound = hi;
  }
  return c;
}

inline constexpr auto kLatencyCells = [] {
  std::array<std::array<LatencyCell, size_t{1} << kCellBits>, kLastWidth + 1> cells{};
  for (unsigned w = 1; w <= kLastWidth; ++w) {
    for (uint64_t cell = 0; cell < (uint64_t{1} << kCellBits); ++cell) {
      const uint64_t top = (uint64_t{1} << kCellBits) | cell;  // the leading one and the cell bits
      uint64_t first = 0, last = 0;
      if (w > kCellBits + 1) {
        first = top << (w - kCellBits - 1);
        last = first + (uint64_t{1} << (w - kCellBits - 1)) - 1;
      } else {
        if (cell & ((uint64_t{1} << (kCellBits + 1 - w)) - 1)) continue;  // no value of width w
        first = last = top >> (kCellBits + 1 - w);
      }
      cells[w][cell] = latency_cell(first, last);
    }
  }
  return cells;
}();

}  // namespace detail

// Both buckets of a latency of `latency_ns` > 0 nanoseconds; equal to
// {latency_bucket(latency_ns), ExponentialHistogram::bucket_of(latency_ns / 1000.0)}
// (telemetry_test checks every bound and its neighbours).
inline LatencyBuckets latency_buckets(int64_t latency_ns) {
  const auto v = static_cast<uint64_t>(latency_ns);
  unsigned w = static_cast<unsigned>(std::bit_width(v));
  uint64_t cell = 0;
  if (w > detail::kCellBits + 1) {
    cell = (v >> (w - detail::kCellBits - 1)) & ((uint64_t{1} << detail::kCellBits) - 1);
  } else {
    cell = (v << (detail::kCellBits + 1 - w)) & ((uint64_t{1} << detail::kCellBits) - 1);
  }
  if (w > detail::kLastWidth) {
    w = detail::kLastWidth;
    cell = (uint64_t{1} << detail::kCellBits) - 1;
  }
  const detail::LatencyCell& c = detail::kLatencyCells[w][cell];
  return {size_t{c.explicit_bucket} + (v > c.explicit_bound ? 1u : 0u),
          size_t{c.exponential} + (v >= c.exponential_bound ? 1u : 0u)};
}

}  // namespace tierwise::telemetry
