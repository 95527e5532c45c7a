// Per-volume telemetry collector: records I/Os into the current interval's
// IntervalMetrics and closes intervals.
#pragma once

#include <cstdint>

#include "telemetry/interval_metrics.hpp"

namespace tierwise::telemetry {

/*
 * Lifecycle of a VolumeCollector (one per volume)
 *
 * 1. Construct: all counters zero, no I/O seen (active() false).
 * 2. For each completed front-end I/O: record_frontend() once, then
 *    record_source() for each source that served part of it. Both only add to
 *    fixed arrays (no allocation, no locking: one thread records) and are
 *    inline, so a caller recording both shares the bin lookups.
 * 3. At the interval's end (all its I/Os completed): close_interval() with the
 *    cache engine's cumulative totals turns them into interval deltas and gauges;
 *    read metrics(); then reset() starts the next interval. Intervals where a
 *    volume saw no I/O need neither call (its cache counters did not move).
 */
class VolumeCollector {
 public:
  // A front-end I/O of `length_bytes` that completed after `latency_ns` (the VM's
  // view) at `completed_us` (microseconds on the interval's clock: trace time in
  // a replay, Unix time in `serve`). Counts operations/bytes at source
  // `frontend`, the size histogram, the bytes per ioLength bin, the frontend
  // latency, and the I/O's second towards the interval's PeakSecond.
  void record_frontend(Direction direction, uint32_t length_bytes, int64_t latency_ns, int64_t completed_us) {
    active_ = true;
    const auto d = static_cast<size_t>(direction);
    // Floor division: seconds of negative times stay whole seconds too.
    const int64_t second = completed_us / 1'000'000 - (completed_us % 1'000'000 < 0 ? 1 : 0);
    if (second != second_) end_second(second);
    ++current_[d].operations;
    current_[d].bytes += length_bytes;
    current_[d].mean_latency_us += latency_ns / kNanosPerMicro;
    const size_t bin = size_bin(length_bytes);
    constexpr auto f = static_cast<size_t>(Source::kFrontend);
    ++metrics_.operations[d][f];
    metrics_.bytes[d][f] += length_bytes;
    metrics_.size[d].add(bin, static_cast<double>(length_bytes));
    metrics_.size_bin_bytes[d][bin] += length_bytes;
    metrics_.latency[d][f][bin].add(latency_bucket(latency_ns), latency_ns / kNanosPerMicro);
    metrics_.latency_exponential[d][f].add(latency_ns / kNanosPerMicro);
  }

  // The part of a front-end I/O of `io_length_bytes` that `source` served:
  // `bytes` bytes in `latency_ns`. The latency is binned by the front-end I/O's
  // ioLength bin, so latency by block size reads the same for every source.
  void record_source(Direction direction, Source source, uint32_t io_length_bytes,
                     uint32_t bytes, int64_t latency_ns) {
    const auto d = static_cast<size_t>(direction);
    const auto s = static_cast<size_t>(source);
    ++metrics_.operations[d][s];
    metrics_.bytes[d][s] += bytes;
    metrics_.latency[d][s][size_bin(io_length_bytes)].add(latency_bucket(latency_ns),
                                                          latency_ns / kNanosPerMicro);
    metrics_.latency_exponential[d][s].add(latency_ns / kNanosPerMicro);
  }

  // Ends the interval: cache sums become `totals` minus the totals at the previous
  // close, gauges are taken from `totals`; the last second counts towards the peaks.
  void close_interval(const CacheTotals& totals);

  // Starts the next interval: zeroes I/O counters and histograms.
  void reset();

  // True when an I/O was recorded since the last reset().
  bool active() const { return active_; }
  const IntervalMetrics& metrics() const { return metrics_; }

 private:
  static constexpr double kNanosPerMicro = 1000.0;

  // Folds the second being counted into metrics_.peak and starts `second`.
  void end_second(int64_t second);

  IntervalMetrics metrics_;
  // The second (completed_us / 1e6) being counted, and its front-end figures.
  int64_t second_ = INT64_MIN;
  PeakSecond current_[kDirectionCount];  // mean_latency_us holds the sum until folded
  CacheTotals last_totals_;
  bool active_ = false;
};

}  // namespace tierwise::telemetry
