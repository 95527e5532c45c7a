// The 4 KiB blocks a ReferenceBatcher already found outside its SHARDS sample,
// one bit per block number. The threshold T only falls, so a block whose
// H(L) mod P was >= T once is never sampled again: a later reference to it
// needs no hash (the decision is known) and no sketch update (the HyperLogLog
// register already holds its rank). That skips SipHash for every reference to
// an unsampled block after the first, which at R = 1 % is almost every
// reference; the telemetry sent is exactly what hashing every block gives.
//
// Memory: one bit per block of the footprint (32 KiB per GiB of addresses
// touched, allocated per 128 MiB chunk on first touch), at most 32 MiB of bits
// (a footprint of 1 TiB; blocks of chunks beyond that are hashed every time),
// plus a pointer per chunk up to the highest block seen (16 MiB at most).
// Block numbers from 2^36 up (beyond 256 TiB) are not remembered either.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace tierwise::sampling {

class UnsampledBlocks {
 public:
  // True when mark() was called for `block`.
  bool contains(uint64_t block) const {
    const uint64_t chunk = block >> kChunkBits;
    if (chunk >= chunks_.size() || !chunks_[chunk]) return false;
    const uint64_t bit = block & kChunkMask;
    return (chunks_[chunk][bit >> 6] >> (bit & 63)) & 1;
  }

  // Remembers `block` as outside the sample (no-op from 2^36 up, or when the
  // block's chunk would be one more than kMaxChunks).
  void mark(uint64_t block);

 private:
  static constexpr unsigned kChunkBits = 15;  // 2^15 blocks: 128 MiB of volume, 4 KiB of bits
  static constexpr uint64_t kChunkMask = (uint64_t{1} << kChunkBits) - 1;
  static constexpr uint64_t kMaxBlocks = uint64_t{1} << 36;
  static constexpr size_t kWordsPerChunk = (size_t{1} << kChunkBits) / 64;
  static constexpr size_t kMaxChunks = 8192;  // 32 MiB of bits

  std::vector<std::unique_ptr<uint64_t[]>> chunks_;
  size_t allocated_ = 0;  // chunks with bits
};

}  // namespace tierwise::sampling
