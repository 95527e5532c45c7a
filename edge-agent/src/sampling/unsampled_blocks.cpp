#include "sampling/unsampled_blocks.hpp"

namespace tierwise::sampling {

void UnsampledBlocks::mark(uint64_t block) {
  if (block >= kMaxBlocks) return;
  const uint64_t chunk = block >> kChunkBits;
  if (chunk >= chunks_.size()) chunks_.resize(chunk + 1);
  std::unique_ptr<uint64_t[]>& words = chunks_[chunk];
  if (!words) {
    if (allocated_ == kMaxChunks) return;
    words = std::make_unique<uint64_t[]>(kWordsPerChunk);  // zeroed
    ++allocated_;
  }
  const uint64_t bit = block & kChunkMask;
  words[bit >> 6] |= uint64_t{1} << (bit & 63);
}

}  // namespace tierwise::sampling
