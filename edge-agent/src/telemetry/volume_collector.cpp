#include "telemetry/volume_collector.hpp"

#include <algorithm>

namespace tierwise::telemetry {

void VolumeCollector::end_second(int64_t second) {
  for (size_t d = 0; d < kDirectionCount; ++d) {
    PeakSecond& peak = metrics_.peak[d];
    const PeakSecond& c = current_[d];
    peak.operations = std::max(peak.operations, c.operations);
    peak.bytes = std::max(peak.bytes, c.bytes);
    if (c.operations > 0) {
      peak.mean_latency_us = std::max(peak.mean_latency_us, c.mean_latency_us / static_cast<double>(c.operations));
    }
    current_[d] = PeakSecond{};
  }
  second_ = second;
}

void VolumeCollector::close_interval(const CacheTotals& totals) {
  end_second(INT64_MIN);
  CacheInterval& c = metrics_.cache;
  for (size_t d = 0; d < kDirectionCount; ++d) {
    c.hit_blocks[d] = totals.hit_blocks[d] - last_totals_.hit_blocks[d];
    c.miss_blocks[d] = totals.miss_blocks[d] - last_totals_.miss_blocks[d];
  }
  c.population_bytes = totals.population_bytes - last_totals_.population_bytes;
  c.eviction_bytes = totals.eviction_bytes - last_totals_.eviction_bytes;
  c.destaged_bytes = totals.destaged_bytes - last_totals_.destaged_bytes;
  c.occupancy_bytes = totals.occupancy_bytes;
  c.capacity_bytes = totals.capacity_bytes;
  c.dirty_bytes = totals.dirty_bytes;
  c.journal_bytes = totals.journal_bytes - last_totals_.journal_bytes;
  c.replicated_bytes = totals.replicated_bytes - last_totals_.replicated_bytes;
  c.fallbacks = totals.fallbacks - last_totals_.fallbacks;
  c.backlog_bytes = totals.backlog_bytes;
  c.destage_rate_limit_bytes_per_s = totals.destage_rate_limit_bytes_per_s;
  c.healthy_peers = totals.healthy_peers;
  c.write_back = totals.write_back;
  last_totals_ = totals;
}

void VolumeCollector::reset() {
  metrics_ = IntervalMetrics{};
  active_ = false;
}

}  // namespace tierwise::telemetry
