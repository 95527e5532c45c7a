// Histogram bins of the agent telemetry (proto/METRICS.md): vscsiStats ioLength
// bins for I/O sizes and log-linear 1-2-5 bounds for latencies.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "trace/record.hpp"

namespace tierwise::telemetry {

using trace::Direction;
inline constexpr size_t kDirectionCount = 2;

// Where a part of an I/O was served (METRICS.md `io.source`). kFrontend is the
// VM's view: every I/O once.
enum class Source : uint8_t { kFrontend = 0, kCache = 1, kPeer = 2, kDatastore = 3 };
inline constexpr size_t kSourceCount = 4;

// "read" / "write" (METRICS.md `io.direction`).
std::string_view direction_name(Direction direction);

// The vscsiStats families' points are by direction view: read and write (a
// Direction's value), and kAllDirections, every command (`io.direction` =
// `all`, METRICS.md).
inline constexpr size_t kAllDirections = kDirectionCount;
inline constexpr size_t kDirectionViewCount = kDirectionCount + 1;
// "read" / "write" / "all".
std::string_view direction_view_name(size_t view);
// "frontend" / "cache" / "peer" / "datastore" (METRICS.md `io.source`).
std::string_view source_name(Source source);

// vscsiStats ioLength histogram upper bounds in bytes, inclusive (VMware
// vscsiStats -p ioLength; the same list in METRICS.md). A last, 18th bin holds
// I/Os larger than 524288 bytes.
inline constexpr std::array<uint64_t, 17> kIoLengthBounds = {
    512, 1024, 2048, 4095, 4096, 8191, 8192, 16383, 16384,
    32768, 49152, 65535, 65536, 81920, 131072, 262144, 524288};
inline constexpr size_t kSizeBinCount = kIoLengthBounds.size() + 1;

namespace detail {

constexpr uint32_t kBinSectorBytes = 512;
constexpr uint64_t kMaxBoundedBytes = kIoLengthBounds.back();

constexpr size_t search_size_bin(uint64_t bytes) {
  return static_cast<size_t>(
      std::lower_bound(kIoLengthBounds.begin(), kIoLengthBounds.end(), bytes) -
      kIoLengthBounds.begin());
}

// The bin of every multiple of 512 bytes up to the last bound, by sectors: the
// sizes a block device sees, looked up without a search on the per-I/O path.
constexpr auto kSizeBinBySectors = [] {
  std::array<uint8_t, kMaxBoundedBytes / kBinSectorBytes + 1> bins{};
  for (size_t s = 0; s < bins.size(); ++s) bins[s] = static_cast<uint8_t>(search_size_bin(s * kBinSectorBytes));
  return bins;
}();

}  // namespace detail

// The ioLength bin of an I/O of `bytes` bytes: the first bin whose bound is
// >= bytes (4096 -> bin "4096", 4097 -> "8191"), or the last bin (">524288").
inline size_t size_bin(uint64_t bytes) {
  if (bytes % detail::kBinSectorBytes == 0 && bytes <= detail::kMaxBoundedBytes) {
    return detail::kSizeBinBySectors[bytes / detail::kBinSectorBytes];
  }
  return detail::search_size_bin(bytes);
}
// `tierwise.io.size_bin` value: the bin's bound in decimal ("512" ... "524288")
// or ">524288".
std::string_view size_bin_label(size_t bin);

// Latency bucket upper bounds in microseconds, inclusive, log-linear 1-2-5
// (METRICS.md). A last, 20th bucket holds latencies above one second.
inline constexpr std::array<uint64_t, 19> kLatencyBoundsUs = {
    1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000,
    20000, 50000, 100000, 200000, 500000, 1000000};
inline constexpr size_t kLatencyBucketCount = kLatencyBoundsUs.size() + 1;

namespace detail {

// Bucket bounds in nanoseconds.
constexpr auto kLatencyBoundsNs = [] {
  std::array<uint64_t, kLatencyBoundsUs.size()> ns{};
  for (size_t i = 0; i < ns.size(); ++i) ns[i] = kLatencyBoundsUs[i] * 1000;
  return ns;
}();

}  // namespace detail

// The latency bucket of `latency_ns` nanoseconds: the first bucket whose bound
// (in microseconds) is >= the latency, or the last bucket. The definition;
// per I/O the collectors read it from a table (latency_buckets.hpp).
constexpr size_t latency_bucket(int64_t latency_ns) {
  if (latency_ns <= 0) return 0;
  const auto ns = static_cast<uint64_t>(latency_ns);
  size_t i = 0;
  while (i < detail::kLatencyBoundsNs.size() && detail::kLatencyBoundsNs[i] < ns) ++i;
  return i;
}

}  // namespace tierwise::telemetry
