// The tenant secret that keys every hash the agent ships (block addresses,
// host and volume ids). The tenant's agents share it; the service never
// receives it (DESIGN.md §2.3-2.4).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include <sodium.h>

namespace tierwise::sampling {

// SipHash-2-4 key size (libsodium crypto_shorthash_KEYBYTES), bytes.
inline constexpr size_t kTenantKeyBytes = crypto_shorthash_KEYBYTES;

struct TenantKey {
  std::array<unsigned char, kTenantKeyBytes> bytes{};
};

// Parses 32 hex characters (upper or lower case). Throws std::invalid_argument
// naming what is wrong (length or a non-hex character).
TenantKey parse_tenant_key(std::string_view hex);

// 32 lower-case hex characters.
std::string format_tenant_key(const TenantKey& key);

// Where the installer (install.sh, docs/install.md) puts the tenant key.
inline constexpr const char* kDefaultKeyFile = "/etc/tierwise/anonymization.key";

// $TIERWISE_AGENT_KEY_FILE when set and non-empty, else kDefaultKeyFile.
std::string default_key_file_path();

// Reads the key file at `path` (32 hex characters, surrounding whitespace
// ignored). When the file does not exist, creates it (mode 0600) with a new
// random key (libsodium randombytes_buf) and sets *created. Throws
// std::runtime_error naming the file when it cannot be read, created or parsed.
TenantKey load_or_create_key_file(const std::string& path, bool* created = nullptr);

}  // namespace tierwise::sampling
