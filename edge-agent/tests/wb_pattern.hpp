// The write-back crash tests' verifying pattern: every 512-byte sector a write
// puts down is derived from the write's sequence number k, the block and the
// sector, so any sector read back names the write it came from and proves it
// is intact. The writer's log of acknowledged writes then says which k each
// sector must hold at least.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>

namespace tierwise::test {

inline constexpr uint32_t kPatternSector = 512;

struct SectorTag {
  uint64_t k;
  uint64_t block;
  uint32_t sector;  // 0..7 within the 4 KiB block
};

// One acknowledged write, as the writer appends it to its log (24 bytes).
struct AckedWrite {
  uint64_t k;
  uint64_t block;
  uint32_t first_sector;
  uint32_t end_sector;  // exclusive
};

inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Fills one sector with the pattern of (k, block, sector).
inline void fill_sector(std::byte* out, const SectorTag& tag) {
  std::memset(out, 0, kPatternSector);
  std::memcpy(out, &tag.k, 8);
  std::memcpy(out + 8, &tag.block, 8);
  std::memcpy(out + 16, &tag.sector, 4);
  uint64_t state = tag.k * 0x100000001B3ULL ^ (tag.block << 3 | tag.sector);
  for (size_t at = 24; at + 8 <= kPatternSector; at += 8) {
    const uint64_t v = splitmix64(state);
    std::memcpy(out + at, &v, 8);
  }
}

// The tag of a sector that holds an intact pattern, or nothing.
inline std::optional<SectorTag> read_sector(const std::byte* in) {
  SectorTag tag{};
  std::memcpy(&tag.k, in, 8);
  std::memcpy(&tag.block, in + 8, 8);
  std::memcpy(&tag.sector, in + 16, 4);
  std::byte expect[kPatternSector];
  fill_sector(expect, tag);
  if (std::memcmp(expect, in, kPatternSector) != 0) return {};
  return tag;
}

}  // namespace tierwise::test
