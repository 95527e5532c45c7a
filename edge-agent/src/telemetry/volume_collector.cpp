#include "telemetry/volume_collector.hpp"

#include <algorithm>

namespace tierwise::telemetry {
namespace {

template <size_t N>
uint64_t total(const std::array<uint64_t, N>& counts) {
  uint64_t sum = 0;
  for (const uint64_t c : counts) sum += c;
  return sum;
}

// A histogram point from integer accumulators: values divided by `scale`
// (nanoseconds to microseconds); the sum only `with_sum` (values >= 0).
template <size_t N, typename Accumulator>
void fill_point(Histogram<N>& h, const Accumulator& a, double scale, bool with_sum) {
  h.bucket_counts = a.counts;
  h.count = total(a.counts);
  if (h.count == 0) return;  // the point stays empty, as reset() left it
  if (with_sum) h.sum = static_cast<double>(static_cast<int64_t>(a.sum)) / scale;
  h.min = static_cast<double>(a.min) / scale;
  h.max = static_cast<double>(a.max) / scale;
}

}  // namespace

VolumeCollector::FrontendTotals VolumeCollector::frontend_totals(size_t d) const {
  FrontendTotals t;
  t.operations = total(size_[d].counts);
  t.bytes = total(size_[d].bin_bytes);
  for (const LatencyAccumulator& a : latency_[d][static_cast<size_t>(Source::kFrontend)]) t.latency_ns += a.sum_ns;
  return t;
}

void VolumeCollector::end_second(int64_t completed_us) {
  for (size_t d = 0; d < kDirectionCount; ++d) {
    const FrontendTotals now = frontend_totals(d);
    FrontendTotals& mark = second_mark_[d];
    PeakSecond& peak = metrics_.peak[d];
    const uint64_t operations = now.operations - mark.operations;
    peak.operations = std::max(peak.operations, operations);
    peak.bytes = std::max(peak.bytes, now.bytes - mark.bytes);
    if (operations > 0) {
      const double mean_us = static_cast<double>(now.latency_ns - mark.latency_ns) / kNanosPerMicro /
                             static_cast<double>(operations);
      peak.mean_latency_us = std::max(peak.mean_latency_us, mean_us);
    }
    mark = now;
  }
  const int64_t second = completed_us / kMicrosPerSecond - (completed_us % kMicrosPerSecond < 0 ? 1 : 0);
  second_start_us_ = second * kMicrosPerSecond;
  second_end_us_ = second_start_us_ + kMicrosPerSecond;
}

void VolumeCollector::close_interval(const CacheTotals& totals, const CpuUsage& cpu) {
  metrics_.cpu = cpu;
  end_second(0);
  second_start_us_ = std::numeric_limits<int64_t>::max();  // the next I/O starts a second
  second_end_us_ = std::numeric_limits<int64_t>::min();
  constexpr auto f = static_cast<size_t>(Source::kFrontend);
  for (size_t d = 0; d < kDirectionCount; ++d) {
    const SizeAccumulator& size = size_[d];
    Histogram<kSizeBinCount>& h = metrics_.size[d];
    h.bucket_counts = size.counts;
    h.count = total(size.counts);
    h.sum = static_cast<double>(total(size.bin_bytes));  // bytes: exact below 2^53
    if (h.count > 0) {
      h.min = size.min;
      h.max = size.max;
    }
    std::copy(size.bin_bytes.begin(), size.bin_bytes.end(), metrics_.size_bin_bytes[d]);
    const uint64_t frontend_bytes = total(size.bin_bytes);
    for (size_t s = 0; s < kSourceCount; ++s) {
      ExponentialHistogram& e = metrics_.latency_exponential[d][s];
      e.min = std::numeric_limits<double>::infinity();
      e.max = -std::numeric_limits<double>::infinity();
      int64_t sum_ns = 0;
      for (size_t bin = 0; bin < kSizeBinCount; ++bin) {
        const LatencyAccumulator& a = latency_[d][s][bin];
        const uint64_t count = total(a.counts);
        if (count == 0) continue;  // the point stays empty, as reset() left it
        Histogram<kLatencyBucketCount>& p = metrics_.latency[d][s][bin];
        p.bucket_counts = a.counts;
        p.count = count;
        p.sum = static_cast<double>(a.sum_ns) / kNanosPerMicro;
        p.min = static_cast<double>(a.min_ns) / kNanosPerMicro;
        p.max = static_cast<double>(a.max_ns) / kNanosPerMicro;
        sum_ns += a.sum_ns;
        e.min = std::min(e.min, p.min);
        e.max = std::max(e.max, p.max);
      }
      e.count = total(e.counts) + e.zero_count;
      e.sum = static_cast<double>(sum_ns) / kNanosPerMicro;
      metrics_.operations[d][s] = e.count;
      metrics_.bytes[d][s] = s == f ? frontend_bytes : source_bytes_[d][s];
    }
  }
  for (size_t v = 0; v < kDirectionViewCount; ++v) {
    fill_point(metrics_.seek_distance[v], seek_[v], 1, false);
    fill_point(metrics_.outstanding[v], outstanding_[v], 1, true);
    fill_point(metrics_.interarrival[v], interarrival_[v], kNanosPerMicro, true);
    fill_point(metrics_.alignment[v], alignment_[v], 1, true);
  }
  for (size_t d = 0; d < kDirectionCount; ++d) {
    metrics_.misaligned_bytes[d] = alignment_work_[d].misaligned_bytes;
    std::copy(alignment_work_[d].blocks.begin(), alignment_work_[d].blocks.end(), metrics_.alignment_blocks[d]);
  }
  fill_point(metrics_.seek_distance_closest, seek_closest_, 1, false);
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
  c.destage_errors = totals.destage_errors - last_totals_.destage_errors;
  c.tier_errors = totals.tier_errors - last_totals_.tier_errors;
  c.backlog_bytes = totals.backlog_bytes;
  c.destage_rate_limit_bytes_per_s = totals.destage_rate_limit_bytes_per_s;
  c.healthy_peers = totals.healthy_peers;
  c.write_back = totals.write_back;
  last_totals_ = totals;
}

void VolumeCollector::reset() {
  for (auto& by_source : latency_) {
    for (auto& by_bin : by_source) std::fill(std::begin(by_bin), std::end(by_bin), LatencyAccumulator{});
  }
  std::fill(std::begin(size_), std::end(size_), SizeAccumulator{});
  for (auto& row : source_bytes_) std::fill(std::begin(row), std::end(row), 0);
  std::fill(std::begin(second_mark_), std::end(second_mark_), FrontendTotals{});
  std::fill(std::begin(seek_), std::end(seek_), ValueAccumulator<kSeekBucketCount>{});
  seek_closest_ = {};
  std::fill(std::begin(outstanding_), std::end(outstanding_), ValueAccumulator<kOutstandingBucketCount>{});
  std::fill(std::begin(interarrival_), std::end(interarrival_), ValueAccumulator<kInterarrivalBucketCount>{});
  std::fill(std::begin(alignment_), std::end(alignment_), ValueAccumulator<kAlignmentBucketCount>{});
  std::fill(std::begin(alignment_work_), std::end(alignment_work_), AlignmentWork{});
  metrics_ = IntervalMetrics{};
  active_ = false;
}

}  // namespace tierwise::telemetry
