// Heap buffer with a chosen alignment (O_DIRECT needs sector/page-aligned memory).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>

namespace tierwise::blockdev {

struct FreeDeleter {
  void operator()(void* p) const noexcept { std::free(p); }
};

// Owning pointer to memory from aligned_alloc; empty on allocation failure.
using AlignedBytes = std::unique_ptr<std::byte[], FreeDeleter>;

// Allocates `size` bytes aligned to `alignment` (a power of two), rounding the
// size up to a multiple of the alignment as aligned_alloc requires (C11 7.22.3.1).
// Returns an empty pointer when memory is exhausted.
inline AlignedBytes allocate_aligned(size_t size, size_t alignment) {
  const size_t rounded = (size + alignment - 1) / alignment * alignment;
  return AlignedBytes(static_cast<std::byte*>(std::aligned_alloc(alignment, rounded)));
}

}  // namespace tierwise::blockdev
