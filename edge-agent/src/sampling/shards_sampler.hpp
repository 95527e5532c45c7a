// SHARDS fixed-rate spatial sampling (Waldspurger, Park, Garthwaite, Ahmad:
// "Efficient MRC Construction with SHARDS", FAST 2015).
//
// Every 4 KiB block an I/O touches is one reference; the reference to block L
// is kept when H(L) mod P < T, with P = 2^24 and T = round(R * P) for the
// sampling rate R. Because the decision depends only on L, a sampled block is
// sampled on every access, which preserves its reuse distances.
#pragma once

#include <cstdint>

#include "sampling/keyed_hash.hpp"

namespace tierwise::sampling {

// P, the hash modulus (FAST'15 uses 2^24).
inline constexpr uint64_t kShardsModulus = uint64_t{1} << 24;
// Default initial sampling rate R: every block, until the batcher's bounded
// sample (ReferenceBatcher::kDefaultMaxSampledBlocks) lowers T as the volume's
// footprint grows. With a fixed rate (max_sampled_blocks = 0), 0.01 is the rate
// the FAST'15 evaluation centres on.
inline constexpr double kDefaultSamplingRate = 1.0;

class ShardsSampler {
 public:
  // Throws std::invalid_argument unless 1/P <= rate <= 1 (T >= 1).
  ShardsSampler(const KeyedHasher& hasher, double rate);

  uint64_t modulus() const { return kShardsModulus; }
  uint64_t threshold() const { return threshold_; }
  // The effective rate T / P.
  double rate() const { return static_cast<double>(threshold_) / kShardsModulus; }

  // H(L) of the 4 KiB block number L.
  uint64_t block_hash(uint64_t block_number) const { return hasher_.block_hash(block_number); }

  // True when a block whose hash is `block_hash` = H(L) is in the sample.
  bool keeps(uint64_t block_hash) const { return block_hash % kShardsModulus < threshold_; }

 private:
  KeyedHasher hasher_;
  uint64_t threshold_;
};

}  // namespace tierwise::sampling
