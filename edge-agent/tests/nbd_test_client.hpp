// A minimal NBD client for the tests that drive the real NBD server
// (frontend/nbd) in process: connect over a Unix socket or TCP, the fixed
// newstyle handshake with NBD_OPT_EXPORT_NAME, and raw requests
// (github.com/NetworkBlockDevice/nbd doc/proto.md).
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "frontend/nbd/protocol.hpp"
#include "frontend/nbd/wire.hpp"

namespace tierwise::testing {

using Bytes = std::vector<std::byte>;

inline void send_all(int fd, const Bytes& b) {
  ASSERT_EQ(::send(fd, b.data(), b.size(), MSG_NOSIGNAL), static_cast<ssize_t>(b.size()));
}

// Up to `n` bytes: fewer when the server closed the connection.
inline Bytes receive(int fd, size_t n) {
  Bytes b(n);
  size_t got = 0;
  while (got < n) {
    const ssize_t r = ::recv(fd, b.data() + got, n - got, 0);
    if (r <= 0) break;
    got += static_cast<size_t>(r);
  }
  b.resize(got);
  return b;
}

inline void append_request(Bytes& b, uint16_t type, uint64_t handle, uint64_t offset, uint32_t length) {
  namespace nbd = frontend::nbd;
  nbd::append_be<uint32_t>(b, nbd::kRequestMagic);
  nbd::append_be<uint16_t>(b, 0);
  nbd::append_be<uint16_t>(b, type);
  nbd::append_be<uint64_t>(b, handle);
  nbd::append_be<uint64_t>(b, offset);
  nbd::append_be<uint32_t>(b, length);
  if (type == nbd::kCmdWrite) b.insert(b.end(), length, std::byte{0x5a});
}

// A connected stream socket to the Unix socket at `path`; -1 on failure.
inline int connect_unix(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// A connected TCP socket to 127.0.0.1:`port`; -1 on failure.
inline int connect_tcp(uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Fixed newstyle handshake on `fd` choosing `export_name` with
// NBD_OPT_EXPORT_NAME (no zeroes); the export's size in bytes, or 0 when the
// server did not answer with one.
inline uint64_t handshake_export_name(int fd, const std::string& export_name) {
  namespace nbd = frontend::nbd;
  if (receive(fd, 18).size() != 18) return 0;  // NBDMAGIC, IHAVEOPT, handshake flags
  Bytes hello;
  nbd::append_be<uint32_t>(hello, nbd::kClientFlagFixedNewstyle | nbd::kClientFlagNoZeroes);
  nbd::append_be<uint64_t>(hello, nbd::kOptionMagic);
  nbd::append_be<uint32_t>(hello, nbd::kOptExportName);
  nbd::append_be<uint32_t>(hello, static_cast<uint32_t>(export_name.size()));
  for (const char c : export_name) hello.push_back(static_cast<std::byte>(c));
  if (::send(fd, hello.data(), hello.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(hello.size())) return 0;
  const Bytes reply = receive(fd, 10);  // size and transmission flags
  if (reply.size() != 10) return 0;
  return nbd::load_be<uint64_t>(reply.data());
}

}  // namespace tierwise::testing
