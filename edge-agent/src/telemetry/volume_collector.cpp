#include "telemetry/volume_collector.hpp"

#include <algorithm>
#include <climits>
#include <cmath>

namespace tierwise::telemetry {
namespace {

// 2^(k/8), k = 0..8: the bucket bounds of one octave at scale 3.
constexpr double kOctaveBounds[9] = {1.0,
                                     1.0905077326652577,
                                     1.189207115002721,
                                     1.2968395546510096,
                                     1.4142135623730951,
                                     1.5422108254079407,
                                     1.6817928305074290,
                                     1.8340080864093424,
                                     2.0};
static_assert(ExponentialHistogram::kScale == 3, "kOctaveBounds holds the 8 buckets of an octave at scale 3");

}  // namespace

int ExponentialHistogram::index_of(double value) {
  // value = m * 2^e with m in [1, 2): index = 8e + ceil(8 log2 m) - 1, where
  // ceil(8 log2 m) is the first k with 2^(k/8) >= m (0 for m = 1, a power of two).
  int exponent = 0;
  const double m = 2 * std::frexp(value, &exponent);
  int k = 0;
  while (kOctaveBounds[k] < m) ++k;
  return ((exponent - 1) << kScale) + k - 1;
}

void ExponentialHistogram::add(double value) {
  ++count;
  sum += value;
  min = std::min(min, value);
  max = std::max(max, value);
  if (value <= 0) {
    ++zero_count;
    return;
  }
  const int index = std::clamp(index_of(value), kMinIndex, kMinIndex + static_cast<int>(kBuckets) - 1);
  ++counts[static_cast<size_t>(index - kMinIndex)];
}

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
