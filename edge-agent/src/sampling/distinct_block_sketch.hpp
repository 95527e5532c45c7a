// HyperLogLog registers of the distinct 4 KiB blocks an agent considered for one
// volume (every block, sampled or not), shipped as register updates in
// tierwise.v1.ReferenceBatch (distinct_blocks_hll_precision / _updates). The
// service merges them (element-wise maximum) and estimates the distinct-block
// count B; distinct sampled blocks / B is the realised SHARDS sampling fraction.
//
// HyperLogLog: Flajolet, Fusy, Gandouet, Meunier, "HyperLogLog: the analysis of a
// near-optimal cardinality estimation algorithm", AofA 2007. Register of a block
// hash H (the SHARDS H(L), so no second hash per block): index = the top p bits;
// value = 1 + leading zeros of the next 40 - p bits, 41 - p when all are zero.
// The low 24 bits decide sampling (H mod 2^24 < T) and are left out, so the
// sketch is independent of the sample.
//
// Few distinct blocks (most volumes of a multi-tenant host) keep a sorted list
// of the non-zero registers; past 2^p / 16 of them the sketch turns into the
// dense array of 2^p bytes (the "sparse" idea of HyperLogLog++, Heule, Nunkesser,
// Hall, EDBT 2013, without its precision change).
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace tierwise::sampling {

class DistinctBlockSketch {
 public:
  // p: 2^p registers; standard error of the estimate about 1.04 / 2^(p/2).
  static constexpr unsigned kDefaultPrecision = 16;
  static constexpr unsigned kMinPrecision = 4;
  static constexpr unsigned kMaxPrecision = 18;
  // Low bits of H that the SHARDS sampling decision uses (P = 2^24) and the sketch skips.
  static constexpr unsigned kSamplingBits = 24;

  // Throws std::invalid_argument unless kMinPrecision <= precision <= kMaxPrecision.
  explicit DistinctBlockSketch(unsigned precision = kDefaultPrecision);

  unsigned precision() const { return precision_; }

  // Adds one considered block by its hash H(L). Inline: once per 4 KiB block
  // of every I/O; a dense register that need not rise costs a load and a compare.
  void add(uint64_t block_hash) {
    const uint32_t index = register_index(block_hash, precision_);
    const uint8_t value = register_value(block_hash, precision_);
    if (!dense_.empty() && (dense_[index] & ~kChanged) >= value) return;
    raise(index, value);
  }

  // Appends (index << 8) | value for every register that rose since the previous
  // call, ascending by index, and starts a new span.
  void take_updates(std::vector<uint32_t>& out);

  // The register (index, value) a block hash maps to, as defined above.
  static uint32_t register_index(uint64_t block_hash, unsigned precision) {
    return static_cast<uint32_t>(block_hash >> (kHashBits - precision));
  }
  static uint8_t register_value(uint64_t block_hash, unsigned precision) {
    const unsigned rank_bits = kHashBits - kSamplingBits - precision;
    // The rank bits moved to the top of a 64-bit word (the index bits shifted out).
    const uint64_t rank_word = (block_hash >> kSamplingBits) << (kHashBits - rank_bits);
    if (rank_word == 0) return static_cast<uint8_t>(rank_bits + 1);
    return static_cast<uint8_t>(std::countl_zero(rank_word) + 1);
  }

 private:
  static constexpr unsigned kHashBits = 64;
  // Register values are <= 41 - 4; bit 7 marks "rose since the last take_updates".
  static constexpr uint8_t kChanged = 0x80;

  void raise(uint32_t index, uint8_t value);
  void make_dense();

  unsigned precision_;
  // Sparse form: sorted (index << 8) | flagged value of the non-zero registers.
  std::vector<uint32_t> sparse_;
  // Dense form (once sparse_ outgrows 2^p / 16): flagged value per register.
  std::vector<uint8_t> dense_;
  // Dense form: indices flagged kChanged, in the order they rose.
  std::vector<uint32_t> changed_;
};

}  // namespace tierwise::sampling
