// Block alignment of front-end commands (proto/METRICS.md `tierwise.io.alignment`,
// `tierwise.io.alignment.misaligned_bytes`, `tierwise.io.alignment.blocks`):
// where a command starts within its 4 KiB block and how many 4 KiB blocks it
// spans, as issued and as it would if it started on a 4 KiB boundary. A guest
// partition that starts off a 4 KiB boundary (the classic 63-sector MBR
// offset) makes every 4 KiB I/O span two blocks of the tier and of the array
// (SimpliVity and NetApp guidance, "block alignment is critical"); the ratio of
// the two block counts is the tier's extra work.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tierwise::telemetry {

// 512-byte sectors per 4 KiB block.
inline constexpr uint64_t kSectorsPerBlock = 8;

// `tierwise.io.alignment` bounds, sectors into the 4 KiB block: bucket k holds
// the commands that start k sectors into their block (0: aligned), the last 7.
inline constexpr std::array<int64_t, 7> kAlignmentBounds = {0, 1, 2, 3, 4, 5, 6};
inline constexpr size_t kAlignmentBucketCount = kAlignmentBounds.size() + 1;

// `tierwise.io.alignment.layout`: the blocks spanned as issued, and if aligned.
enum class AlignmentLayout : uint8_t { kIssued = 0, kAligned = 1 };
inline constexpr size_t kAlignmentLayoutCount = 2;
inline constexpr std::array<std::string_view, kAlignmentLayoutCount> kAlignmentLayoutNames = {"issued", "aligned"};

// One command's alignment, from the 512-byte sectors it covers, first_sector
// to last_sector inclusive.
struct CommandAlignment {
  size_t offset_sectors;    // first_sector mod 8: the tierwise.io.alignment bucket
  uint64_t bytes;           // (last - first + 1) sectors, in bytes
  uint64_t blocks_issued;   // 4 KiB blocks the sectors span
  uint64_t blocks_aligned;  // 4 KiB blocks the same length spans from a 4 KiB boundary
};

constexpr CommandAlignment command_alignment(uint64_t first_sector, uint64_t last_sector) {
  const uint64_t sectors = last_sector - first_sector + 1;
  return {static_cast<size_t>(first_sector % kSectorsPerBlock), sectors * 512,
          last_sector / kSectorsPerBlock - first_sector / kSectorsPerBlock + 1,
          (sectors + kSectorsPerBlock - 1) / kSectorsPerBlock};
}

}  // namespace tierwise::telemetry
