#include "telemetry/io_bins.hpp"

namespace tierwise::telemetry {
namespace {

constexpr std::array<std::string_view, kSizeBinCount> kSizeBinLabels = {
    "512", "1024", "2048", "4095", "4096", "8191", "8192", "16383", "16384",
    "32768", "49152", "65535", "65536", "81920", "131072", "262144", "524288", ">524288"};

}  // namespace

std::string_view direction_name(Direction direction) {
  return direction == Direction::kRead ? "read" : "write";
}

std::string_view direction_view_name(size_t view) {
  return view == kAllDirections ? "all" : direction_name(static_cast<Direction>(view));
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

std::string_view size_bin_label(size_t bin) { return kSizeBinLabels.at(bin); }

}  // namespace tierwise::telemetry
