// Keyed 64-bit hashing with SipHash-2-4 (Aumasson & Bernstein 2012) through
// libsodium crypto_shorthash: the block addresses H(L) of SHARDS sampling and
// the pseudonymous host/volume ids (DESIGN.md §2.3-2.4).
//
// Inputs are domain-separated by a prefix so that a name can never hash like a
// block address: "block:" + L as 8 little-endian bytes, "host:" + host name,
// "volume:" + volume name.
#pragma once

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
  explicit KeyedHasher(const TenantKey& key) : key_(key) {}

  // H(L) for a 4 KiB block number L (byte offset / 4096).
  uint64_t block_hash(uint64_t block_number) const;

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
};

}  // namespace tierwise::sampling
