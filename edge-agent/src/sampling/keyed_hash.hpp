// Keyed 64-bit hashing with SipHash-2-4 (Aumasson & Bernstein 2012): the block
// addresses H(L) of SHARDS sampling and the pseudonymous host/volume ids
// (DESIGN.md §2.3-2.4). Names go through libsodium crypto_shorthash; the block
// hash, once per 4 KiB block of every I/O, is the same function specialised
// inline to its fixed 14-byte message (checked against libsodium by the tests).
//
// Inputs are domain-separated by a prefix so that a name can never hash like a
// block address: "block:" + L as 8 little-endian bytes, "host:" + host name,
// "volume:" + volume name.
#pragma once

#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "sampling/tenant_key.hpp"

namespace tierwise::sampling {

// SipHash-2-4 of `message` under `key`; the 8 output bytes read as a
// little-endian integer (the convention of the SipHash paper's test vectors).
uint64_t siphash24(const TenantKey& key, std::span<const unsigned char> message);

class KeyedHasher {
 public:
  explicit KeyedHasher(const TenantKey& key);

  // H(L) for a 4 KiB block number L (byte offset / 4096): SipHash-2-4 of the
  // 14-byte message "block:" + L (8 bytes, little-endian), the value
  // siphash24(key, message) returns. Once per 4 KiB block of every I/O, so it
  // is inline and specialised to that message: the state after the key
  // (v0..v3 of the paper's initialisation) is computed once, and the message
  // is two 64-bit words (m0 = "block:" + L's low 2 bytes, m1 = L's high 6
  // bytes + the length byte 14), so one call is 8 SipRounds and no loop. The
  // sampling tests check it against libsodium's crypto_shorthash_siphash24.
  uint64_t block_hash(uint64_t block_number) const {
    constexpr uint64_t kDomainWord = 0x3a6b636f6c62;  // "block:" little-endian
    constexpr uint64_t kLengthWord = uint64_t{14} << 56;
    const uint64_t m0 = kDomainWord | (block_number << 48);
    const uint64_t m1 = (block_number >> 16) | kLengthWord;
    uint64_t v0 = block_state_[0], v1 = block_state_[1], v2 = block_state_[2], v3 = block_state_[3];
    const auto round = [&] {
      v0 += v1; v1 = std::rotl(v1, 13); v1 ^= v0; v0 = std::rotl(v0, 32);
      v2 += v3; v3 = std::rotl(v3, 16); v3 ^= v2;
      v0 += v3; v3 = std::rotl(v3, 21); v3 ^= v0;
      v2 += v1; v1 = std::rotl(v1, 17); v1 ^= v2; v2 = std::rotl(v2, 32);
    };
    v3 ^= m0; round(); round(); v0 ^= m0;  // SipHash-2-4: 2 compression rounds
    v3 ^= m1; round(); round(); v0 ^= m1;
    v2 ^= 0xff; round(); round(); round(); round();  // and 4 finalization rounds
    return v0 ^ v1 ^ v2 ^ v3;
  }

  // Pseudonymous `host.id`: 16 lower-case hex characters.
  std::string host_id(std::string_view host_name) const;

  // Pseudonymous `volume.id` / `tierwise.volume.id`: 16 lower-case hex characters.
  std::string volume_id(std::string_view volume_name) const;

  // Pseudonymous `tierwise.cluster.id` (and ReferenceBatch.cluster_id) of the
  // cluster whose shared tier the host uses: 16 lower-case hex characters.
  std::string cluster_id(std::string_view cluster_name) const;

 private:
  std::string pseudonym(std::string_view domain, std::string_view name) const;

  TenantKey key_;
  // SipHash-2-4's v0..v3 after the key (k0, k1 = the key's two little-endian
  // words XORed into "somepseudorandomlygeneratedbytes").
  uint64_t block_state_[4];
};

}  // namespace tierwise::sampling
