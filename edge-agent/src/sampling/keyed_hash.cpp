#include "sampling/keyed_hash.hpp"

#include <sodium.h>

#include <array>
#include <vector>

namespace tierwise::sampling {
namespace {

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

KeyedHasher::KeyedHasher(const TenantKey& key) : key_(key) {
  const uint64_t k0 = load_le64(key.bytes.data());
  const uint64_t k1 = load_le64(key.bytes.data() + 8);
  block_state_[0] = k0 ^ 0x736f6d6570736575ULL;
  block_state_[1] = k1 ^ 0x646f72616e646f6dULL;
  block_state_[2] = k0 ^ 0x6c7967656e657261ULL;
  block_state_[3] = k1 ^ 0x7465646279746573ULL;
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
