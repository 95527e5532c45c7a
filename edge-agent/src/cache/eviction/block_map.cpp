#include "cache/eviction/block_map.hpp"

namespace tierwise::cache::eviction {
namespace {

constexpr size_t kInitialEntries = 64;

// The 64-bit finalizer of MurmurHash3 (Appleby): block numbers of a volume are
// dense and sequential, so they must be spread before masking.
uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

}  // namespace

size_t BlockMap::home(uint64_t block) const { return mix(block) & mask_; }

uint32_t BlockMap::find(uint64_t block) const {
  if (size_ == 0) return kAbsent;
  for (size_t i = home(block);; i = (i + 1) & mask_) {
    const Entry& e = table_[i];
    if (e.value == kAbsent) return kAbsent;
    if (e.block == block) return e.value;
  }
}

void BlockMap::insert(uint64_t block, uint32_t value) {
  if ((size_ + 1) * 2 > table_.size()) grow();
  size_t i = home(block);
  while (table_[i].value != kAbsent) i = (i + 1) & mask_;
  table_[i] = Entry{block, value};
  ++size_;
}

bool BlockMap::erase(uint64_t block) {
  if (size_ == 0) return false;
  size_t i = home(block);
  while (table_[i].block != block || table_[i].value == kAbsent) {
    if (table_[i].value == kAbsent) return false;
    i = (i + 1) & mask_;
  }
  // Backward shift: pull later entries of the probe run into the hole unless
  // their home lies cyclically in (hole, j].
  size_t hole = i;
  for (size_t j = (hole + 1) & mask_; table_[j].value != kAbsent; j = (j + 1) & mask_) {
    const size_t h = home(table_[j].block);
    const bool stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
    if (stays) continue;
    table_[hole] = table_[j];
    hole = j;
  }
  table_[hole] = Entry{};
  --size_;
  return true;
}

void BlockMap::grow() {
  std::vector<Entry> old;
  old.swap(table_);
  table_.assign(old.empty() ? kInitialEntries : old.size() * 2, Entry{});
  mask_ = table_.size() - 1;
  size_ = 0;
  for (const Entry& e : old) {
    if (e.value != kAbsent) insert(e.block, e.value);
  }
}

}  // namespace tierwise::cache::eviction
