// 4 KiB block arithmetic shared by the sampler, the working-set counters and
// the exact MRC.
#pragma once

#include <cstdint>

#include "trace/record.hpp"

namespace tierwise::trace {

// Block size of every working-set and MRC computation (DESIGN.md §3), bytes.
inline constexpr uint64_t kBlockBytes = 4096;

// The 4 KiB blocks an I/O touches: block numbers first..last, inclusive.
struct BlockRange {
  uint64_t first = 0;
  uint64_t last = 0;
  // Number of blocks in the range (>= 1).
  uint64_t count() const { return last - first + 1; }
};

// Blocks touched by `io`: offset/4096 .. (offset + length - 1)/4096.
// Requires io.length_bytes > 0 (every reader guarantees it).
inline BlockRange blocks_touched(const IoRecord& io) {
  return {io.offset_bytes / kBlockBytes,
          (io.offset_bytes + io.length_bytes - 1) / kBlockBytes};
}

}  // namespace tierwise::trace
