#include "telemetry/volume_collector.hpp"

namespace tierwise::telemetry {
namespace {

constexpr double kNanosPerMicro = 1000.0;

}  // namespace

void VolumeCollector::record_frontend(Direction direction, uint32_t length_bytes,
                                      int64_t latency_ns) {
  active_ = true;
  const auto d = static_cast<size_t>(direction);
  const size_t bin = size_bin(length_bytes);
  const auto f = static_cast<size_t>(Source::kFrontend);
  ++metrics_.operations[d][f];
  metrics_.bytes[d][f] += length_bytes;
  metrics_.size[d].add(bin, static_cast<double>(length_bytes));
  metrics_.size_bin_bytes[d][bin] += length_bytes;
  metrics_.latency[d][f][bin].add(latency_bucket(latency_ns), latency_ns / kNanosPerMicro);
}

void VolumeCollector::record_source(Direction direction, Source source, uint32_t io_length_bytes,
                                    uint32_t bytes, int64_t latency_ns) {
  const auto d = static_cast<size_t>(direction);
  const auto s = static_cast<size_t>(source);
  ++metrics_.operations[d][s];
  metrics_.bytes[d][s] += bytes;
  metrics_.latency[d][s][size_bin(io_length_bytes)].add(latency_bucket(latency_ns),
                                                        latency_ns / kNanosPerMicro);
}

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
