#include "telemetry/volume_collector.hpp"

namespace tierwise::telemetry {

void VolumeCollector::close_interval(const CacheTotals& totals) {
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
