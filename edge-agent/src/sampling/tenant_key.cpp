#include "sampling/tenant_key.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "sampling/sodium_init.hpp"

namespace tierwise::sampling {
namespace {

constexpr size_t kHexChars = 2 * kTenantKeyBytes;

std::string_view trim(std::string_view text) {
  constexpr std::string_view kSpace = " \t\r\n";
  size_t first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kSpace) - first + 1);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  if (!in) throw std::runtime_error("key file " + path + ": cannot read: " + std::strerror(errno));
  return content.str();
}

// Creates `path` exclusively with mode 0600; false when it already exists.
bool create_key_file(const std::string& path, const TenantKey& key) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    if (errno == EEXIST) return false;
    throw std::runtime_error("key file " + path + ": cannot create: " + std::strerror(errno));
  }
  std::string text = format_tenant_key(key) + "\n";
  ssize_t written = ::write(fd, text.data(), text.size());
  int write_errno = errno;
  ::close(fd);
  if (written != static_cast<ssize_t>(text.size())) {
    ::unlink(path.c_str());
    throw std::runtime_error("key file " + path + ": cannot write: " + std::strerror(write_errno));
  }
  return true;
}

}  // namespace

TenantKey parse_tenant_key(std::string_view hex) {
  if (hex.size() != kHexChars) {
    throw std::invalid_argument("tenant key must be " + std::to_string(kHexChars) +
                                " hex characters, got " + std::to_string(hex.size()));
  }
  TenantKey key;
  size_t decoded = 0;
  const char* end = nullptr;
  if (sodium_hex2bin(key.bytes.data(), key.bytes.size(), hex.data(), hex.size(), nullptr, &decoded,
                     &end) != 0 ||
      decoded != kTenantKeyBytes) {
    size_t at = end == nullptr ? 0 : static_cast<size_t>(end - hex.data());
    throw std::invalid_argument("tenant key has a non-hex character at position " +
                                std::to_string(at + 1));
  }
  return key;
}

std::string format_tenant_key(const TenantKey& key) {
  char hex[kHexChars + 1];
  sodium_bin2hex(hex, sizeof hex, key.bytes.data(), key.bytes.size());
  return hex;
}

std::string default_key_file_path() {
  const char* env = std::getenv("TIERWISE_AGENT_KEY_FILE");
  return env != nullptr && *env != '\0' ? env : kDefaultKeyFile;
}

TenantKey load_or_create_key_file(const std::string& path, bool* created) {
  ensure_sodium();
  if (created != nullptr) *created = false;
  TenantKey fresh;
  randombytes_buf(fresh.bytes.data(), fresh.bytes.size());
  if (create_key_file(path, fresh)) {
    if (created != nullptr) *created = true;
    return fresh;
  }
  try {
    return parse_tenant_key(trim(read_file(path)));
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error("key file " + path + ": " + e.what());
  }
}

}  // namespace tierwise::sampling
