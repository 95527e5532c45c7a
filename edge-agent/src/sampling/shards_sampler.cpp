#include "sampling/shards_sampler.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace tierwise::sampling {
namespace {

uint64_t threshold_for(double rate) {
  if (!(rate > 0.0 && rate <= 1.0)) {
    throw std::invalid_argument("sampling rate must be in (0, 1], got " + std::to_string(rate));
  }
  auto threshold = static_cast<uint64_t>(std::llround(rate * kShardsModulus));
  if (threshold == 0) {
    throw std::invalid_argument("sampling rate " + std::to_string(rate) +
                                " is below 1/2^24, the smallest SHARDS rate");
  }
  return threshold;
}

}  // namespace

ShardsSampler::ShardsSampler(const KeyedHasher& hasher, double rate)
    : hasher_(hasher), threshold_(threshold_for(rate)) {}

}  // namespace tierwise::sampling
