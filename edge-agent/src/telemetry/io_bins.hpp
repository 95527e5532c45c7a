// Histogram bins of the agent telemetry (proto/METRICS.md): vscsiStats ioLength
// bins for I/O sizes and log-linear 1-2-5 bounds for latencies.
#pragma once

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
// "frontend" / "cache" / "peer" / "datastore" (METRICS.md `io.source`).
std::string_view source_name(Source source);

// vscsiStats ioLength histogram upper bounds in bytes, inclusive (VMware
// vscsiStats -p ioLength; the same list in METRICS.md). A last, 18th bin holds
// I/Os larger than 524288 bytes.
inline constexpr std::array<uint64_t, 17> kIoLengthBounds = {
    512, 1024, 2048, 4095, 4096, 8191, 8192, 16383, 16384,
    32768, 49152, 65535, 65536, 81920, 131072, 262144, 524288};
inline constexpr size_t kSizeBinCount = kIoLengthBounds.size() + 1;

// The ioLength bin of an I/O of `bytes` bytes: the first bin whose bound is
// >= bytes (4096 -> bin "4096", 4097 -> "8191"), or the last bin (">524288").
size_t size_bin(uint64_t bytes);
// `tierwise.io.size_bin` value: the bin's bound in decimal ("512" ... "524288")
// or ">524288".
std::string_view size_bin_label(size_t bin);

// Latency bucket upper bounds in microseconds, inclusive, log-linear 1-2-5
// (METRICS.md). A last, 20th bucket holds latencies above one second.
inline constexpr std::array<uint64_t, 19> kLatencyBoundsUs = {
    1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000,
    20000, 50000, 100000, 200000, 500000, 1000000};
inline constexpr size_t kLatencyBucketCount = kLatencyBoundsUs.size() + 1;

// The latency bucket of `latency_ns` nanoseconds: the first bucket whose bound
// (in microseconds) is >= the latency, or the last bucket.
size_t latency_bucket(int64_t latency_ns);

}  // namespace tierwise::telemetry
