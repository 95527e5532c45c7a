#include "telemetry/volume_collector.hpp"

#include <algorithm>
#include <climits>
#include <cmath>

namespace tierwise::telemetry {
namespace {

constexpr double kNanosPerMicro = 1000.0;

}  // namespace

int ExponentialHistogram::index_of(double value) {
  int exponent = 0;
  const double fraction = std::frexp(value, &exponent);  // value = fraction * 2^exponent, fraction in [0.5, 1)
  if (fraction == 0.5) return ((exponent - 1) << kScale) - 1;  // 2^(exponent-1) closes bucket index-1
  return static_cast<int>(std::ceil(std::log2(value) * (1 << kScale))) - 1;
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

void VolumeCollector::record_frontend(Direction direction, uint32_t length_bytes,
                                      int64_t latency_ns, int64_t completed_us) {
  active_ = true;
  const auto d = static_cast<size_t>(direction);
  // Floor division: seconds of negative times stay whole seconds too.
  const int64_t second = completed_us / 1'000'000 - (completed_us % 1'000'000 < 0 ? 1 : 0);
  if (second != second_) end_second(second);
  ++current_[d].operations;
  current_[d].bytes += length_bytes;
  current_[d].mean_latency_us += latency_ns / kNanosPerMicro;
  const size_t bin = size_bin(length_bytes);
  const auto f = static_cast<size_t>(Source::kFrontend);
  ++metrics_.operations[d][f];
  metrics_.bytes[d][f] += length_bytes;
  metrics_.size[d].add(bin, static_cast<double>(length_bytes));
  metrics_.size_bin_bytes[d][bin] += length_bytes;
  metrics_.latency[d][f][bin].add(latency_bucket(latency_ns), latency_ns / kNanosPerMicro);
  metrics_.latency_exponential[d][f].add(latency_ns / kNanosPerMicro);
}

void VolumeCollector::record_source(Direction direction, Source source, uint32_t io_length_bytes,
                                    uint32_t bytes, int64_t latency_ns) {
  const auto d = static_cast<size_t>(direction);
  const auto s = static_cast<size_t>(source);
  ++metrics_.operations[d][s];
  metrics_.bytes[d][s] += bytes;
  metrics_.latency[d][s][size_bin(io_length_bytes)].add(latency_bucket(latency_ns),
                                                        latency_ns / kNanosPerMicro);
  metrics_.latency_exponential[d][s].add(latency_ns / kNanosPerMicro);
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
