// Big-endian (network byte order) loads and appends for NBD messages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tierwise::frontend::nbd {

// Reads an unsigned big-endian integer of sizeof(T) bytes at `p`.
template <typename T>
T load_be(const std::byte* p) {
  T v = 0;
  for (size_t i = 0; i < sizeof(T); ++i) v = static_cast<T>((v << 8) | static_cast<T>(p[i]));
  return v;
}

// Appends `v` as sizeof(T) big-endian bytes to `out`.
template <typename T>
void append_be(std::vector<std::byte>& out, T v) {
  for (size_t i = sizeof(T); i-- > 0;) out.push_back(static_cast<std::byte>((v >> (8 * i)) & 0xff));
}

// Writes `v` as sizeof(T) big-endian bytes at `p`.
template <typename T>
void store_be(std::byte* p, T v) {
  for (size_t i = sizeof(T); i-- > 0;) {
    *p++ = static_cast<std::byte>((v >> (8 * i)) & 0xff);
  }
}

}  // namespace tierwise::frontend::nbd
