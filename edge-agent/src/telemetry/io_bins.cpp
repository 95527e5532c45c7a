#include "telemetry/io_bins.hpp"

#include <algorithm>

namespace tierwise::telemetry {
namespace {

constexpr std::array<std::string_view, kSizeBinCount> kSizeBinLabels = {
    "512", "1024", "2048", "4095", "4096", "8191", "8192", "16383", "16384",
    "32768", "49152", "65535", "65536", "81920", "131072", "262144", "524288", ">524288"};

}  // namespace

std::string_view direction_name(Direction direction) {
  return direction == Direction::kRead ? "read" : "write";
}

std::string_view source_name(Source source) {
  switch (source) {
    case Source::kFrontend: return "frontend";
    case Source::kCache: return "cache";
    case Source::kPeer: return "peer";
    case Source::kDatastore: return "datastore";
  }
  return "unknown";
}

size_t size_bin(uint64_t bytes) {
  return static_cast<size_t>(
      std::lower_bound(kIoLengthBounds.begin(), kIoLengthBounds.end(), bytes) -
      kIoLengthBounds.begin());
}

std::string_view size_bin_label(size_t bin) { return kSizeBinLabels.at(bin); }

size_t latency_bucket(int64_t latency_ns) {
  // Compare in nanoseconds: bound_us * 1000 >= latency_ns.
  size_t i = 0;
  while (i < kLatencyBoundsUs.size() &&
         static_cast<int64_t>(kLatencyBoundsUs[i] * 1000) < latency_ns) {
    ++i;
  }
  return i;
}

}  // namespace tierwise::telemetry
