#include "replication/frame.hpp"

#include <sys/socket.h>

#include <cerrno>
#include <cstring>

#include "cache/writeback/journal_format.hpp"

namespace tierwise::replication {
namespace {

constexpr uint32_t kMagic = 0x50525754U;  // "TWRP" little-endian
constexpr uint8_t kVersion = 1;
constexpr size_t kCrcAt = 20;

using cache::writeback::crc32c;

int read_exact(int fd, std::byte* buf, size_t n) {
  size_t done = 0;
  while (done < n) {
    const ssize_t got = ::recv(fd, buf + done, n - done, 0);
    if (got == 0) return -ECONNRESET;
    if (got < 0) {
      if (errno == EINTR) continue;
      return -errno;
    }
    done += static_cast<size_t>(got);
  }
  return 0;
}

}  // namespace

void encode_frame(FrameType type, uint64_t value, std::span<const std::byte> payload,
                  std::vector<std::byte>* out) {
  std::byte h[kFrameHeaderBytes] = {};
  const auto length = static_cast<uint32_t>(payload.size());
  std::memcpy(h, &kMagic, 4);
  h[4] = static_cast<std::byte>(type);
  h[5] = static_cast<std::byte>(kVersion);
  std::memcpy(h + 8, &length, 4);
  std::memcpy(h + 12, &value, 8);
  const uint32_t crc = crc32c(payload, crc32c(std::span<const std::byte>(h, kCrcAt)));
  std::memcpy(h + kCrcAt, &crc, 4);
  out->insert(out->end(), h, h + kFrameHeaderBytes);
  out->insert(out->end(), payload.begin(), payload.end());
}

int read_frame(int fd, Frame* frame, std::string* error) {
  std::byte h[kFrameHeaderBytes];
  if (const int rc = read_exact(fd, h, sizeof h); rc != 0) return rc;
  uint32_t magic = 0, length = 0, crc = 0;
  std::memcpy(&magic, h, 4);
  std::memcpy(&length, h + 8, 4);
  std::memcpy(&frame->value, h + 12, 8);
  std::memcpy(&crc, h + kCrcAt, 4);
  const auto type = static_cast<uint8_t>(h[4]);
  if (magic != kMagic || static_cast<uint8_t>(h[5]) != kVersion) {
    *error = "not a Tierwise replication frame (bad magic or version)";
    return -EBADMSG;
  }
  if (type < static_cast<uint8_t>(FrameType::kHello) || type > static_cast<uint8_t>(FrameType::kTrim)) {
    *error = "unknown frame type " + std::to_string(type);
    return -EBADMSG;
  }
  if (length > kMaxPayload) {
    *error = "frame payload of " + std::to_string(length) + " bytes exceeds " +
             std::to_string(kMaxPayload);
    return -EBADMSG;
  }
  frame->type = static_cast<FrameType>(type);
  frame->payload.resize(length);
  if (const int rc = read_exact(fd, frame->payload.data(), length); rc != 0) return rc;
  if (crc32c(frame->payload, crc32c(std::span<const std::byte>(h, kCrcAt))) != crc) {
    *error = "frame checksum mismatch";
    return -EBADMSG;
  }
  return 0;
}

int write_all(int fd, std::span<const std::byte> bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::send(fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return -errno;
    }
    done += static_cast<size_t>(n);
  }
  return 0;
}

}  // namespace tierwise::replication
