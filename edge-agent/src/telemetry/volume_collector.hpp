// Per-volume telemetry collector: records I/Os into the current interval's
// accumulators and turns them into IntervalMetrics when the interval closes.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>

#include "telemetry/interval_metrics.hpp"
#include "telemetry/latency_buckets.hpp"
#include "telemetry/vscsi_bounds.hpp"

namespace tierwise::telemetry {

/*
 * Lifecycle of a VolumeCollector (one per volume)
 *
 * 1. Construct: all counters zero, no I/O seen (active() false).
 * 2. For each completed front-end I/O: record_frontend() once, then
 *    record_source() for each source that served part of it. Both only add to
 *    fixed arrays of integers (no allocation, no locking: one thread records)
 *    and are inline, so a caller recording both shares the bin lookups.
 *    For each front-end command issued, in issue order: record_issue(), and
 *    record_outstanding() where the caller knows the I/Os in flight (the
 *    vscsiStats families of proto/METRICS.md; also fixed arrays and inline).
 * 3. At the interval's end (all its I/Os completed): close_interval() with the
 *    cache engine's cumulative totals fills metrics(): the I/O figures from the
 *    accumulators, cache interval deltas and gauges; read metrics() (only
 *    after close_interval()); then reset() starts the next interval. Intervals
 *    where a volume saw no I/O need neither call (its cache counters did not move).
 *    What record_issue() keeps of the previous commands (their last sectors
 *    and issue times) outlives reset(): the first command of an interval is
 *    measured from the last one of the interval before.
 *
 * Per I/O only what cannot be derived later is recorded, once: a bucket count,
 * an integer nanosecond sum and the minimum and maximum per latency histogram
 * point, the exponential bucket, the size bucket and bytes. At the close,
 * operation counts are the sums of bucket counts, front-end bytes the sum of
 * the bytes per ioLength bin, and the exponential histogram's count, sum, min
 * and max those of the explicit-bounds points of the same direction and source
 * (both receive every latency of that direction and source). Latency sums are
 * exact: integer nanoseconds, divided by 1000 once.
 */
class VolumeCollector {
 public:
  // A front-end I/O of `length_bytes` that completed after `latency_ns` (the VM's
  // view) at `completed_us` (microseconds on the interval's clock: trace time in
  // a replay, Unix time in `serve`). Counts operations/bytes at source
  // `frontend`, the size histogram, the bytes per ioLength bin, the frontend
  // latency, and the I/O's second towards the interval's PeakSecond. Returns
  // the I/O's ioLength bin (size_bin(length_bytes)) for record_source_in_bin().
  size_t record_frontend(Direction direction, uint32_t length_bytes, int64_t latency_ns, int64_t completed_us) {
    active_ = true;
    const auto d = static_cast<size_t>(direction);
    if (completed_us < second_start_us_ || completed_us >= second_end_us_) end_second(completed_us);
    const size_t bin = size_bin(length_bytes);
    SizeAccumulator& size = size_[d];
    ++size.counts[bin];
    size.bin_bytes[bin] += length_bytes;
    size.min = std::min(size.min, length_bytes);
    size.max = std::max(size.max, length_bytes);
    record_latency(d, static_cast<size_t>(Source::kFrontend), bin, latency_ns);
    return bin;
  }

  // The part of a front-end I/O of `io_length_bytes` that `source` served:
  // `bytes` bytes in `latency_ns`. The latency is binned by the front-end I/O's
  // ioLength bin, so latency by block size reads the same for every source.
  void record_source(Direction direction, Source source, uint32_t io_length_bytes,
                     uint32_t bytes, int64_t latency_ns) {
    record_source_in_bin(direction, source, size_bin(io_length_bytes), bytes, latency_ns);
  }
  // The same with the front-end I/O's ioLength bin (what record_frontend()
  // returned), so recording an I/O and its sources looks the bin up once.
  void record_source_in_bin(Direction direction, Source source, size_t io_length_bin,
                            uint32_t bytes, int64_t latency_ns) {
    const auto d = static_cast<size_t>(direction);
    const auto s = static_cast<size_t>(source);
    source_bytes_[d][s] += bytes;
    record_latency(d, s, io_length_bin, latency_ns);
  }

  // A front-end command issued, in issue order: `direction`, the 512-byte
  // sectors it covers, first_sector to last_sector inclusive, and its issue
  // time `issued_ns` on a clock that does not go back (nanoseconds: the
  // trace's time in a replay, the steady clock in `serve`). Counts, as
  // proto/METRICS.md defines them (commands of every direction for `all`):
  // - tierwise.io.seek_distance: first_sector minus the last sector of the
  //   previous command (`all`) and of the previous command of this direction
  //   (`read` / `write`): a sequential stream gives 1;
  // - tierwise.io.seek_distance.closest: the same distance from the closest
  //   of the previous kClosestWindow commands, the smallest absolute distance
  //   (between d and -d, the forward d > 0);
  // - tierwise.io.interarrival: issued_ns minus the previous command's
  //   issue time (`all`) and that of the previous command of this direction.
  // A volume's first command (of a direction) has no previous one and counts
  // in none of them (of that direction). Every command counts in the block
  // alignment figures (telemetry/alignment.hpp).
  void record_issue(Direction direction, uint64_t first_sector, uint64_t last_sector, int64_t issued_ns) {
    active_ = true;
    const auto d = static_cast<size_t>(direction);
    record_alignment(d, command_alignment(first_sector, last_sector));
    const auto first = static_cast<int64_t>(first_sector);
    IssueState& s = issue_;
    if (s.seen[kAllDirections]) [[likely]] {
      record_seek(kAllDirections, first - s.last_sector[kAllDirections]);
      record_interarrival(kAllDirections, issued_ns - s.last_issue_ns[kAllDirections]);
      // The ring holds kNoCommand where no command was yet: farther than any
      // sector, it never wins against a real one. Key: |distance| * 2, plus 1
      // for a backward one, so the smallest key is the closest, forward first.
      uint64_t best = std::numeric_limits<uint64_t>::max();
      for (const int64_t last : s.ring) {
        const int64_t distance = first - last;
        const uint64_t magnitude = distance < 0 ? 0 - static_cast<uint64_t>(distance) : static_cast<uint64_t>(distance);
        best = std::min(best, magnitude << 1 | (distance < 0 ? 1u : 0u));
      }
      const auto magnitude = static_cast<int64_t>(best >> 1);
      const int64_t closest = (best & 1) != 0 ? -magnitude : magnitude;
      seek_closest_.add(seek_bucket(closest), closest);
    }
    if (s.seen[d]) {
      record_seek(d, first - s.last_sector[d]);
      record_interarrival(d, issued_ns - s.last_issue_ns[d]);
    }
    const auto last = static_cast<int64_t>(last_sector);
    for (const size_t v : {d, kAllDirections}) {
      s.seen[v] = true;
      s.last_sector[v] = last;
      s.last_issue_ns[v] = issued_ns;
    }
    s.ring[s.ring_next] = last;
    s.ring_next = (s.ring_next + 1) % kClosestWindow;
  }

  // tierwise.io.outstanding (proto/METRICS.md): when a command of `direction`
  // was issued, `in_flight` I/Os of the volume were issued and not completed,
  // `in_flight_direction` of them of its direction, both counting it.
  void record_outstanding(Direction direction, uint64_t in_flight, uint64_t in_flight_direction) {
    active_ = true;
    const auto all = static_cast<int64_t>(in_flight);
    const auto own = static_cast<int64_t>(in_flight_direction);
    outstanding_[kAllDirections].add(outstanding_bucket(all), all);
    outstanding_[static_cast<size_t>(direction)].add(outstanding_bucket(own), own);
  }

  // The commands tierwise.io.seek_distance.closest looks back on.
  static constexpr size_t kClosestWindow = 16;

  // Ends the interval: fills metrics() from the accumulators; cache sums become
  // `totals` minus the totals at the previous close, gauges are taken from
  // `totals`; the last second counts towards the peaks. `cpu`: the interval's
  // CPU usage as measured by the caller (`serve`); default: not measured.
  void close_interval(const CacheTotals& totals, const CpuUsage& cpu = CpuUsage{});

  // Starts the next interval: zeroes I/O counters and histograms.
  void reset();

  // True when an I/O was recorded since the last reset().
  bool active() const { return active_; }
  // The interval's figures as of the last close_interval().
  const IntervalMetrics& metrics() const { return metrics_; }

 private:
  static constexpr double kNanosPerMicro = 1000.0;
  static constexpr int64_t kMicrosPerSecond = 1'000'000;

  // One latency histogram point, in integer nanoseconds.
  struct LatencyAccumulator {
    std::array<uint64_t, kLatencyBucketCount> counts{};
    int64_t sum_ns = 0;
    int64_t min_ns = std::numeric_limits<int64_t>::max();
    int64_t max_ns = std::numeric_limits<int64_t>::min();
  };
  // The front-end size histogram of one direction, and its bytes per bin.
  struct SizeAccumulator {
    std::array<uint64_t, kSizeBinCount> counts{};
    std::array<uint64_t, kSizeBinCount> bin_bytes{};
    uint32_t min = std::numeric_limits<uint32_t>::max();
    uint32_t max = 0;
  };
  // One histogram point of integer values: bucket counts, the sum (wrapping;
  // read only where values are >= 0), minimum and maximum.
  template <size_t Buckets>
  struct ValueAccumulator {
    std::array<uint64_t, Buckets> counts{};
    uint64_t sum = 0;
    int64_t min = std::numeric_limits<int64_t>::max();
    int64_t max = std::numeric_limits<int64_t>::min();
    void add(size_t bucket, int64_t value) {
      ++counts[bucket];
      sum += static_cast<uint64_t>(value);
      min = std::min(min, value);
      max = std::max(max, value);
    }
  };
  // The alignment sums of one direction (IntervalMetrics::misaligned_bytes,
  // alignment_blocks).
  struct AlignmentWork {
    uint64_t misaligned_bytes = 0;
    std::array<uint64_t, kAlignmentLayoutCount> blocks{};
  };
  // What record_issue() keeps of the previous commands, by direction view.
  // Sectors are below 2^55 (byte offsets below 2^64), so every distance,
  // kNoCommand's included, fits in an int64.
  static constexpr int64_t kNoCommand = std::numeric_limits<int64_t>::min() / 2;
  struct IssueState {
    std::array<int64_t, kClosestWindow> ring = filled_ring();  // last sectors of the last commands
    size_t ring_next = 0;
    int64_t last_sector[kDirectionViewCount] = {};
    int64_t last_issue_ns[kDirectionViewCount] = {};
    bool seen[kDirectionViewCount] = {};
  };
  static constexpr std::array<int64_t, kClosestWindow> filled_ring() {
    std::array<int64_t, kClosestWindow> ring{};
    ring.fill(kNoCommand);
    return ring;
  }

  void record_alignment(size_t d, const CommandAlignment& a) {
    const auto offset = static_cast<int64_t>(a.offset_sectors);
    alignment_[d].add(a.offset_sectors, offset);
    alignment_[kAllDirections].add(a.offset_sectors, offset);
    AlignmentWork& w = alignment_work_[d];
    w.misaligned_bytes += a.offset_sectors != 0 ? a.bytes : 0;
    w.blocks[static_cast<size_t>(AlignmentLayout::kIssued)] += a.blocks_issued;
    w.blocks[static_cast<size_t>(AlignmentLayout::kAligned)] += a.blocks_aligned;
  }
  void record_seek(size_t view, int64_t distance) { seek_[view].add(seek_bucket(distance), distance); }
  // A clock that went back counts as no time.
  void record_interarrival(size_t view, int64_t ns) {
    ns = std::max<int64_t>(ns, 0);
    interarrival_[view].add(interarrival_bucket(ns), ns);
  }

  // Front-end operations, bytes and latency sum of one direction (for the peaks).
  struct FrontendTotals {
    uint64_t operations = 0;
    uint64_t bytes = 0;
    int64_t latency_ns = 0;
  };

  void record_latency(size_t d, size_t s, size_t bin, int64_t latency_ns) {
    LatencyAccumulator& a = latency_[d][s][bin];
    a.sum_ns += latency_ns;
    a.min_ns = std::min(a.min_ns, latency_ns);
    a.max_ns = std::max(a.max_ns, latency_ns);
    ExponentialHistogram& e = metrics_.latency_exponential[d][s];
    if (latency_ns > 0) {
      const LatencyBuckets b = latency_buckets(latency_ns);
      ++a.counts[b.explicit_bucket];
      ++e.counts[b.exponential];
    } else {
      ++a.counts[0];
      ++e.zero_count;
    }
  }

  // The front-end totals of direction d so far in the interval.
  FrontendTotals frontend_totals(size_t d) const;
  // Folds the second being counted into metrics_.peak and starts the second
  // of `completed_us` (floor division: negative times stay whole seconds too).
  void end_second(int64_t completed_us);

  LatencyAccumulator latency_[kDirectionCount][kSourceCount][kSizeBinCount];
  SizeAccumulator size_[kDirectionCount];
  uint64_t source_bytes_[kDirectionCount][kSourceCount] = {};
  // The second being counted, [start, end) in microseconds (empty: none yet),
  // and the front-end totals when it started.
  int64_t second_start_us_ = std::numeric_limits<int64_t>::max();
  int64_t second_end_us_ = std::numeric_limits<int64_t>::min();
  FrontendTotals second_mark_[kDirectionCount];
  // The vscsiStats families of the interval, and the issue-order state they
  // are measured from (kept across intervals).
  ValueAccumulator<kSeekBucketCount> seek_[kDirectionViewCount];
  ValueAccumulator<kSeekBucketCount> seek_closest_;
  ValueAccumulator<kOutstandingBucketCount> outstanding_[kDirectionViewCount];
  ValueAccumulator<kInterarrivalBucketCount> interarrival_[kDirectionViewCount];
  ValueAccumulator<kAlignmentBucketCount> alignment_[kDirectionViewCount];
  AlignmentWork alignment_work_[kDirectionCount];
  IssueState issue_;
  // The exponential buckets and zero counts are recorded here directly; the
  // rest of metrics_ is filled at the close.
  IntervalMetrics metrics_;
  CacheTotals last_totals_;
  bool active_ = false;
};

}  // namespace tierwise::telemetry
