// Stores and loads of little-endian integers in byte buffers, for the on-disk
// formats (the write-back journal, the ownership lease). x86-64 and aarch64
// Linux are little-endian; memcpy keeps them alignment-safe.
#pragma once

#include <bit>
#include <cstddef>
#include <cstring>

namespace tierwise::common {

static_assert(std::endian::native == std::endian::little, "the on-disk formats are little-endian");

template <typename T>
void store_le(std::byte* at, T value) {
  std::memcpy(at, &value, sizeof value);
}

template <typename T>
T load_le(const std::byte* at) {
  T value;
  std::memcpy(&value, at, sizeof value);
  return value;
}

}  // namespace tierwise::common
