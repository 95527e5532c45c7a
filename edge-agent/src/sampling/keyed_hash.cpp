#include "sampling/keyed_hash.hpp"

#include <sodium.h>

#include <array>
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
  std::array<unsigned char, kBlockDomain.size() + 8> message{};
  std::memcpy(message.data(), kBlockDomain.data(), kBlockDomain.size());
  for (size_t i = 0; i < 8; ++i) {
    message[kBlockDomain.size() + i] = static_cast<unsigned char>(block_number >> (8 * i));
  }
  return siphash24(key_, message);
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
