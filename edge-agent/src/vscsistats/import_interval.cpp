#include "vscsistats/import_interval.hpp"

#include <algorithm>

namespace tierwise::vscsistats {
namespace {

template <size_t N>
void fill(telemetry::Histogram<N>& out, const Histogram& h, bool with_sum) {
  std::copy_n(h.buckets.begin(), std::min(N, h.buckets.size()), out.bucket_counts.begin());
  out.count = h.count;
  if (h.count == 0) return;
  out.sum = with_sum ? static_cast<double>(h.mean) * static_cast<double>(h.count) : 0;
  out.min = static_cast<double>(h.min);
  out.max = static_cast<double>(h.max);
}

}  // namespace

telemetry::IntervalMetrics interval_of(const Disk& disk) {
  telemetry::IntervalMetrics m;
  constexpr auto frontend = static_cast<size_t>(telemetry::Source::kFrontend);
  for (const Histogram& h : disk.histograms) {
    const auto v = static_cast<size_t>(h.view);
    switch (h.family) {
      case Family::kIoLength:
        if (h.view == View::kAll) break;  // the sum of read and write
        fill(m.size[v], h, true);
        m.operations[v][frontend] = h.count;
        m.bytes[v][frontend] = static_cast<uint64_t>(std::max<int64_t>(h.mean, 0)) * h.count;
        break;
      case Family::kSeekDistance:
        fill(m.seek_distance[v], h, false);
        break;
      case Family::kSeekDistanceClosest:
        fill(m.seek_distance_closest, h, false);
        break;
      case Family::kLatency:
        fill(m.vscsi_latency[v], h, true);
        break;
      case Family::kOutstanding:
        fill(m.outstanding[v], h, true);
        break;
      case Family::kInterarrival:
        fill(m.interarrival[v], h, true);
        break;
    }
  }
  return m;
}

}  // namespace tierwise::vscsistats
