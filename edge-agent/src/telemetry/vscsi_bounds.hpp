// The bucket limits of the vscsiStats histogram families (proto/METRICS.md:
// `tierwise.io.seek_distance`, `tierwise.io.seek_distance.closest`,
// `tierwise.io.outstanding`, `tierwise.io.interarrival`,
// `tierwise.io.latency.vscsistats`, and "The vscsiStats
// families keep vscsiStats' own bucket limits"): vscsiStats' own limits
// (VMware ESX `vscsiStats -p all`; Ahmad, "Easy and Efficient Disk I/O
// Workload Characterization in VMware ESX Server", IISWC 2007), so that its
// output maps onto the exported histograms bucket for bucket. Declared here
// once: the collectors bin with them and the OTLP encoding sends them as
// `explicit_bounds`.
//
// Bucket rule (every family): upper bounds, inclusive. A value lands in the
// first bucket whose bound is >= the value; one last bucket, after the last
// bound, holds the values above it.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace tierwise::telemetry {

// Seek distance in 512-byte sectors, signed (both seek families).
inline constexpr std::array<int64_t, 33> kSeekDistanceBounds = {
    -500000, -100000, -50000, -10000, -5000, -1000, -500, -128, -64, -32, -16,
    -8,      -6,      -4,     -2,     -1,    0,     1,    2,    4,   6,   8,
    16,      32,      64,     128,    500,   1000,  5000, 10000, 50000, 100000, 500000};
inline constexpr size_t kSeekBucketCount = kSeekDistanceBounds.size() + 1;

// I/Os in flight when one is issued, that one included.
inline constexpr std::array<int64_t, 12> kOutstandingBounds = {1, 2, 4, 6, 8, 12, 16, 20, 24, 28, 32, 64};
inline constexpr size_t kOutstandingBucketCount = kOutstandingBounds.size() + 1;

// Time since the previous command was issued, microseconds.
inline constexpr std::array<int64_t, 10> kInterarrivalBoundsUs = {1,    10,    100,   500,   1000,
                                                                  5000, 15000, 30000, 50000, 100000};
inline constexpr size_t kInterarrivalBucketCount = kInterarrivalBoundsUs.size() + 1;

// vscsiStats latency, microseconds: the same limits as interarrival. The agent
// measures latency in its own finer buckets (tierwise.io.latency); these carry
// the latency histograms of imported vscsiStats output
// (tierwise.io.latency.vscsistats, `tierwise-agent import-vscsistats`).
inline constexpr std::array<int64_t, 10> kVscsiLatencyBoundsUs = kInterarrivalBoundsUs;
inline constexpr size_t kVscsiLatencyBucketCount = kVscsiLatencyBoundsUs.size() + 1;

namespace detail {

// A bounds table padded with the largest int64 to 2^k - 1 entries, so the
// bucket is found by k comparisons that each add a step or nothing: no
// branch, no data-dependent loop (per I/O on the data plane).
template <size_t N>
struct PaddedBounds {
  static constexpr size_t kSpan = std::bit_ceil(N + 1);  // a power of two > N
  std::array<int64_t, kSpan - 1> bounds{};

  // How many bounds are < value: the first bucket whose bound is >= value,
  // or N (the last bucket) when value is above every bound.
  constexpr size_t bucket(int64_t value) const {
    size_t i = 0;
    for (size_t step = kSpan / 2; step > 0; step /= 2) i += bounds[i + step - 1] < value ? step : 0;
    return i;
  }
};

// `bounds` times `scale` (the interarrival bounds in nanoseconds), padded.
template <size_t N>
constexpr PaddedBounds<N> padded(const std::array<int64_t, N>& bounds, int64_t scale) {
  PaddedBounds<N> p;
  for (size_t i = 0; i < p.bounds.size(); ++i) {
    p.bounds[i] = i < N ? bounds[i] * scale : std::numeric_limits<int64_t>::max();
  }
  return p;
}

inline constexpr auto kSeekSearch = padded(kSeekDistanceBounds, 1);
inline constexpr auto kOutstandingSearch = padded(kOutstandingBounds, 1);
inline constexpr auto kInterarrivalSearchNs = padded(kInterarrivalBoundsUs, 1000);

}  // namespace detail

// The bucket of a seek distance of `sectors` (kSeekDistanceBounds).
constexpr size_t seek_bucket(int64_t sectors) { return detail::kSeekSearch.bucket(sectors); }

// The bucket of `in_flight` outstanding I/Os (kOutstandingBounds).
constexpr size_t outstanding_bucket(int64_t in_flight) { return detail::kOutstandingSearch.bucket(in_flight); }

// The bucket of an interarrival time of `ns` nanoseconds (kInterarrivalBoundsUs,
// microseconds: 1500 ns is above the bound 1 us).
constexpr size_t interarrival_bucket(int64_t ns) { return detail::kInterarrivalSearchNs.bucket(ns); }

}  // namespace tierwise::telemetry
