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

// Checks a frame header; 0 with the payload length, or -EBADMSG with `error`.
int check_header(const std::byte* h, uint32_t* length, std::string* error) {
  uint32_t magic = 0;
  uint16_t reserved = 0;
  std::memcpy(&magic, h, 4);
  std::memcpy(&reserved, h + 6, 2);
  std::memcpy(length, h + 8, 4);
  const auto type = static_cast<uint8_t>(h[4]);
  if (magic != kMagic || static_cast<uint8_t>(h[5]) != kVersion || reserved != 0) {
    *error = "not a Tierwise replication frame (bad magic, version or reserved field)";
    return -EBADMSG;
  }
  if (type < static_cast<uint8_t>(FrameType::kHello) || type > static_cast<uint8_t>(FrameType::kDestaged)) {
    *error = "unknown frame type " + std::to_string(type);
    return -EBADMSG;
  }
  if (*length > kMaxPayload) {
    *error = "frame payload of " + std::to_string(*length) + " bytes exceeds " + std::to_string(kMaxPayload);
    return -EBADMSG;
  }
  return 0;
}

// Fills `frame` from a checked header and its payload; -EBADMSG when the checksum differs.
int finish_frame(const std::byte* h, Frame* frame, std::string* error) {
  uint32_t crc = 0;
  std::memcpy(&crc, h + kCrcAt, 4);
  if (crc32c(frame->payload, crc32c(std::span<const std::byte>(h, kCrcAt))) != crc) {
    *error = "frame checksum mismatch";
    return -EBADMSG;
  }
  frame->type = static_cast<FrameType>(h[4]);
  std::memcpy(&frame->value, h + 12, 8);
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

long decode_frame(std::span<const std::byte> bytes, Frame* frame, std::string* error) {
  if (bytes.size() < kFrameHeaderBytes) return 0;
  uint32_t length = 0;
  if (const int rc = check_header(bytes.data(), &length, error); rc != 0) return rc;
  if (bytes.size() - kFrameHeaderBytes < length) return 0;
  const std::byte* payload = bytes.data() + kFrameHeaderBytes;
  frame->payload.assign(payload, payload + length);
  if (const int rc = finish_frame(bytes.data(), frame, error); rc != 0) return rc;
  return static_cast<long>(kFrameHeaderBytes + length);
}

int read_frame(int fd, Frame* frame, std::string* error) {
  std::byte h[kFrameHeaderBytes];
  if (const int rc = read_exact(fd, h, sizeof h); rc != 0) return rc;
  uint32_t length = 0;
  if (const int rc = check_header(h, &length, error); rc != 0) return rc;
  frame->payload.resize(length);
  if (const int rc = read_exact(fd, frame->payload.data(), length); rc != 0) return rc;
  return finish_frame(h, frame, error);
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
