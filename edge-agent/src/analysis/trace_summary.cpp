#include "analysis/trace_summary.hpp"

#include <algorithm>

#include "trace/blocks.hpp"

namespace tierwise::analysis {
namespace {

constexpr uint8_t kReadBit = 1;
constexpr uint8_t kWriteBit = 2;
constexpr uint64_t kSectorBytes = 512;

}  // namespace

uint64_t WorkloadStats::wss_bytes() const { return distinct_blocks * trace::kBlockBytes; }

double WorkloadStats::time_span_s() const {
  return static_cast<double>(last_time_us - first_time_us) / 1e6;
}

TraceSummary::Volume& TraceSummary::volume_for(const std::string& name) {
  if (last_index_ < volumes_.size() && volumes_[last_index_].name == name) {
    return volumes_[last_index_];
  }
  auto [it, inserted] = index_.try_emplace(name, volumes_.size());
  if (inserted) volumes_.push_back(Volume{name, {}, {}});
  last_index_ = it->second;
  return volumes_[last_index_];
}

void TraceSummary::add(const trace::IoRecord& io) {
  Volume& volume = volume_for(io.volume);
  WorkloadStats& counts = volume.counts;
  bool is_read = io.direction == trace::Direction::kRead;
  if (counts.operations() == 0) {
    counts.first_time_us = counts.last_time_us = io.time_us;
  } else {
    counts.first_time_us = std::min(counts.first_time_us, io.time_us);
    counts.last_time_us = std::max(counts.last_time_us, io.time_us);
  }
  (is_read ? counts.reads : counts.writes) += 1;
  (is_read ? counts.read_bytes : counts.write_bytes) += io.length_bytes;
  uint8_t bit = is_read ? kReadBit : kWriteBit;
  const uint64_t first_sector = io.offset_bytes / kSectorBytes;
  const uint64_t end_sector = (io.offset_bytes + std::max<uint64_t>(io.length_bytes, 1) + kSectorBytes - 1) / kSectorBytes;
  const telemetry::CommandAlignment alignment = telemetry::command_alignment(first_sector, end_sector - 1);
  ++counts.start_sector_ios[alignment.offset_sectors];
  counts.misaligned_bytes += alignment.offset_sectors != 0 ? alignment.bytes : 0;
  counts.blocks_issued += alignment.blocks_issued;
  counts.blocks_aligned += alignment.blocks_aligned;
  trace::BlockRange range = trace::blocks_touched(io);
  for (uint64_t block = range.first; block <= range.last; ++block) volume.blocks[block] |= bit;
}

WorkloadStats TraceSummary::finished(const Volume& volume) {
  WorkloadStats stats = volume.counts;
  stats.distinct_blocks = volume.blocks.size();
  for (const auto& [block, bits] : volume.blocks) {
    if (bits & kReadBit) ++stats.distinct_read_blocks;
    if (bits & kWriteBit) ++stats.distinct_write_blocks;
  }
  return stats;
}

std::vector<VolumeSummary> TraceSummary::volumes() const {
  std::vector<VolumeSummary> out;
  out.reserve(volumes_.size());
  for (const Volume& volume : volumes_) out.push_back({volume.name, finished(volume)});
  return out;
}

WorkloadStats TraceSummary::total() const {
  WorkloadStats sum;
  bool first = true;
  for (const VolumeSummary& v : volumes()) {
    const WorkloadStats& s = v.stats;
    sum.reads += s.reads;
    sum.writes += s.writes;
    sum.read_bytes += s.read_bytes;
    sum.write_bytes += s.write_bytes;
    sum.distinct_blocks += s.distinct_blocks;
    sum.distinct_read_blocks += s.distinct_read_blocks;
    sum.distinct_write_blocks += s.distinct_write_blocks;
    for (size_t i = 0; i < s.start_sector_ios.size(); ++i) sum.start_sector_ios[i] += s.start_sector_ios[i];
    sum.misaligned_bytes += s.misaligned_bytes;
    sum.blocks_issued += s.blocks_issued;
    sum.blocks_aligned += s.blocks_aligned;
    sum.first_time_us = first ? s.first_time_us : std::min(sum.first_time_us, s.first_time_us);
    sum.last_time_us = first ? s.last_time_us : std::max(sum.last_time_us, s.last_time_us);
    first = false;
  }
  return sum;
}

}  // namespace tierwise::analysis
