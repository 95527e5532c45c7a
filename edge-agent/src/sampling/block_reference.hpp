// A sampled block reference, as shipped in tierwise.v1.BlockReference.
#pragma once

#include <cstdint>

#include "trace/record.hpp"

namespace tierwise::sampling {

struct BlockReference {
  // H(L): keyed hash of the 4 KiB block number (KeyedHasher::block_hash).
  uint64_t block_hash = 0;
  trace::Direction direction = trace::Direction::kRead;
  // 4 KiB blocks touched by the I/O that made this reference (>= 1).
  uint32_t length_blocks = 1;
  // Time of the I/O, microseconds, on the trace's clock (IoRecord::time_us).
  int64_t time_us = 0;
};

}  // namespace tierwise::sampling
