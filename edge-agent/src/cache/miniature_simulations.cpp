#include "cache/miniature_simulations.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>
#include <string>

namespace tierwise::cache {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;
constexpr uint64_t kGiB = uint64_t{1} << 30;

void check_threshold(uint64_t modulus, uint64_t threshold) {
  if (threshold == 0 || threshold > modulus) {
    throw std::invalid_argument("SHARDS threshold must be in 1.." + std::to_string(modulus) + ", got " +
                                std::to_string(threshold));
  }
}

}  // namespace

std::vector<uint64_t> MiniatureSimulations::default_cache_bytes() {
  std::vector<uint64_t> sizes;
  for (uint64_t power = 4 * kMiB; power <= 64 * kGiB; power *= 2) {
    sizes.push_back(power);
    if (power < 64 * kGiB) sizes.push_back(power + power / 2);
  }
  return sizes;
}

MiniatureSimulations::MiniatureSimulations(uint64_t modulus, uint64_t agent_threshold,
                                           std::vector<uint64_t> cache_bytes, uint32_t max_blocks, size_t parts)
    : modulus_(modulus), parts_(parts) {
  if (modulus == 0) throw std::invalid_argument("SHARDS modulus must be > 0");
  check_threshold(modulus, agent_threshold);
  if (max_blocks < 1) throw std::invalid_argument("a miniature tier needs at least 1 block");
  for (size_t i = 0; i < cache_bytes.size(); ++i) {
    const uint64_t blocks = cache_bytes[i] / kBlockBytes;
    if (blocks < 1 || (i > 0 && cache_bytes[i] <= cache_bytes[i - 1])) {
      throw std::invalid_argument("cache sizes must increase from one 4 KiB block");
    }
    Size s;
    s.bytes = cache_bytes[i];
    s.blocks = blocks;
    const double rate = std::min(1.0, static_cast<double>(max_blocks) / static_cast<double>(blocks));
    const double t = std::floor(rate * static_cast<double>(modulus));
    s.ceiling = t >= static_cast<double>(modulus) ? modulus : std::max<uint64_t>(1, static_cast<uint64_t>(t));
    s.threshold = std::min(s.ceiling, agent_threshold);
    s.pending.resize(parts);
    sizes_.push_back(std::move(s));
  }
}

size_t MiniatureSimulations::add_part() {
  for (Size& s : sizes_) s.pending.emplace_back();
  return parts_++;
}

void MiniatureSimulations::check_part(size_t part) const {
  if (part >= parts_) {
    throw std::out_of_range("miniature simulations part " + std::to_string(part) + " of " + std::to_string(parts_));
  }
}

uint32_t MiniatureSimulations::capacity(const Size& s) const {
  const double rate = static_cast<double>(s.threshold) / static_cast<double>(modulus_);
  // Java's Math.round (half up), as the service's mirror sizes its caches.
  const double blocks = std::floor(static_cast<double>(s.blocks) * rate + 0.5);
  return static_cast<uint32_t>(std::clamp(blocks, 1.0, static_cast<double>(TierIndex::kNoSlot - 1)));
}

void MiniatureSimulations::follow_agent_threshold(uint64_t agent_threshold) {
  check_threshold(modulus_, agent_threshold);
  for (Size& s : sizes_) {
    if (agent_threshold >= s.threshold) continue;
    const uint64_t stepped = agent_threshold / kLoweringDenominator * kLoweringNumerator;
    s.threshold = std::min(s.ceiling, stepped == 0 ? agent_threshold : stepped);
    const uint64_t lowered = s.threshold;
    const uint64_t modulus = modulus_;
    for (auto& tier : s.tiers) {
      tier->drop_if([lowered, modulus](uint64_t hash) { return hash % modulus >= lowered; });
      tier->resize(capacity(s));
    }
  }
}

void MiniatureSimulations::reference(uint64_t block_hash, bool write, size_t part) {
  check_part(part);
  const uint64_t priority = block_hash % modulus_;
  for (Size& s : sizes_) {
    if (priority >= s.threshold) continue;
    if (s.tiers.empty()) {
      const uint32_t slots = capacity(s);
      for (const eviction::PolicyKind kind : policies()) {
        s.tiers.push_back(std::make_unique<TierIndex>(slots, slots, eviction::make_policy(kind, slots)));
      }
    }
    std::vector<SizeCounts>& pending = s.pending[part];
    if (pending.empty() || pending.back().threshold != s.threshold) {
      pending.push_back({.cache_bytes = s.bytes,
                         .threshold = s.threshold,
                         .misses = std::vector<uint64_t>(s.tiers.size(), 0),
                         .read_misses = std::vector<uint64_t>(s.tiers.size(), 0)});
    }
    SizeCounts& c = pending.back();
    ++c.references;
    if (!write) ++c.read_references;
    for (size_t p = 0; p < s.tiers.size(); ++p) {
      TierIndex& tier = *s.tiers[p];
      const uint32_t slot = tier.find(block_hash);
      if (slot != TierIndex::kNoSlot) {
        tier.touch(slot);
        continue;
      }
      tier.insert(block_hash);
      ++c.misses[p];
      if (!write) ++c.read_misses[p];
    }
  }
}

void MiniatureSimulations::take_counts(std::vector<SizeCounts>* out, size_t part) {
  check_part(part);
  for (Size& s : sizes_) {
    std::vector<SizeCounts>& pending = s.pending[part];
    out->insert(out->end(), std::make_move_iterator(pending.begin()), std::make_move_iterator(pending.end()));
    pending.clear();
  }
}

}  // namespace tierwise::cache
