#include "sampling/keyed_hash.hpp"

#include <sodium.h>

#include <array>
#include <bit>
#include <cstring>
#include <vector>

namespace tierwise::sampling {
namespace {

constexpr std::string_view kBlockDomain = "block:";

uint64_t load_le64(const unsigned char* bytes) {
  uint64_t value = 0;
  for (int i = 7; i >= 0; --i) value = (value << 8) | bytes[i];
  return value;
}

}  // namespace

uint64_t siphash24(const TenantKey& key, std::span<const unsigned char> message) {
  std::array<unsigned char, crypto_shorthash_BYTES> out{};
  crypto_shorthash(out.data(), message.data(), message.size(), key.bytes.data());
  return load_le64(out.data());
}

uint64_t KeyedHasher::block_hash(uint64_t block_number) const {
  // Once per 4 KiB block of every I/O: the message is built with two copies
  // and one SipHash call, no per-byte loop.
  std::array<unsigned char, kBlockDomain.size() + 8> message;
  std::memcpy(message.data(), kBlockDomain.data(), kBlockDomain.size());
  const uint64_t le = std::endian::native == std::endian::little ? block_number
                                                                 : __builtin_bswap64(block_number);
  std::memcpy(message.data() + kBlockDomain.size(), &le, sizeof le);
  std::array<unsigned char, crypto_shorthash_BYTES> out;
  crypto_shorthash_siphash24(out.data(), message.data(), message.size(), key_.bytes.data());
  uint64_t hash = 0;
  std::memcpy(&hash, out.data(), sizeof hash);
  return std::endian::native == std::endian::little ? hash : __builtin_bswap64(hash);
}

std::string KeyedHasher::host_id(std::string_view host_name) const {
  return pseudonym("host:", host_name);
}

std::string KeyedHasher::volume_id(std::string_view volume_name) const {
  return pseudonym("volume:", volume_name);
}

std::string KeyedHasher::cluster_id(std::string_view cluster_name) const {
  return pseudonym("cluster:", cluster_name);
}

std::string KeyedHasher::pseudonym(std::string_view domain, std::string_view name) const {
  std::vector<unsigned char> message(domain.begin(), domain.end());
  message.insert(message.end(), name.begin(), name.end());
  std::array<unsigned char, crypto_shorthash_BYTES> out{};
  crypto_shorthash(out.data(), message.data(), message.size(), key_.bytes.data());
  char hex[2 * crypto_shorthash_BYTES + 1];
  sodium_bin2hex(hex, sizeof hex, out.data(), out.size());
  return hex;
}

}  // namespace tierwise::sampling
