// Exact per-volume workload summary of a trace: I/O counts and bytes by
// direction, time span, and the working set (distinct 4 KiB blocks, DESIGN.md
// §3) in total, read and write. Block addresses stay in memory on the host;
// this is the local reference the sampled estimates are checked against.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "telemetry/alignment.hpp"
#include "trace/record.hpp"

namespace tierwise::analysis {

struct WorkloadStats {
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t read_bytes = 0;
  uint64_t write_bytes = 0;
  // Earliest and latest IoRecord::time_us (the trace's order may not be time order).
  int64_t first_time_us = 0;
  int64_t last_time_us = 0;
  // Distinct 4 KiB blocks touched by any I/O, by reads, by writes.
  uint64_t distinct_blocks = 0;
  uint64_t distinct_read_blocks = 0;
  uint64_t distinct_write_blocks = 0;
  // Block alignment (telemetry/alignment.hpp) of the I/Os as a block device
  // sees them (rounded out to 512-byte sectors): I/Os by the sector of its
  // 4 KiB block they start at, the sector-rounded bytes of the I/Os that start
  // off a 4 KiB boundary, and the 4 KiB blocks the I/Os span as issued and
  // as they would from a 4 KiB boundary.
  std::array<uint64_t, telemetry::kAlignmentBucketCount> start_sector_ios{};
  uint64_t misaligned_bytes = 0;
  uint64_t blocks_issued = 0;
  uint64_t blocks_aligned = 0;

  uint64_t operations() const { return reads + writes; }
  // Working set size: distinct blocks x 4 KiB, bytes.
  uint64_t wss_bytes() const;
  // last_time_us - first_time_us, seconds (0 without records).
  double time_span_s() const;
  // I/Os that start off a 4 KiB boundary.
  uint64_t misaligned_ios() const { return operations() - start_sector_ios[0]; }
};

struct VolumeSummary {
  std::string volume;
  WorkloadStats stats;
};

class TraceSummary {
 public:
  void add(const trace::IoRecord& io);

  // One entry per volume, in order of first appearance.
  std::vector<VolumeSummary> volumes() const;
  // All volumes together (volumes are separate address spaces: their distinct
  // blocks add up).
  WorkloadStats total() const;

 private:
  struct Volume {
    std::string name;
    WorkloadStats counts;  // distinct_* filled in by volumes()
    std::unordered_map<uint64_t, uint8_t> blocks;  // block number -> kRead|kWrite bits
  };

  Volume& volume_for(const std::string& name);
  static WorkloadStats finished(const Volume& volume);

  std::vector<Volume> volumes_;
  std::unordered_map<std::string, size_t> index_;
  size_t last_index_ = 0;
};

}  // namespace tierwise::analysis
