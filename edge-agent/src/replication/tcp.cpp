#include "replication/tcp.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <stdexcept>

namespace tierwise::replication {
namespace {

struct AddrInfoFree {
  void operator()(addrinfo* a) const { freeaddrinfo(a); }
};

int resolve(const std::string& address, bool passive, std::unique_ptr<addrinfo, AddrInfoFree>* out) {
  std::string host, port;
  try {
    split_address(address, &host, &port);
  } catch (const std::invalid_argument&) {
    return -EINVAL;
  }
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = passive ? AI_PASSIVE : 0;
  addrinfo* res = nullptr;
  if (getaddrinfo(host.c_str(), port.c_str(), &hints, &res) != 0) return -EINVAL;
  out->reset(res);
  return 0;
}

}  // namespace

void split_address(const std::string& address, std::string* host, std::string* port) {
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == address.size()) {
    throw std::invalid_argument("peer address '" + address + "' is not host:port");
  }
  *host = address.substr(0, colon);
  *port = address.substr(colon + 1);
}

int connect_tcp(const std::string& address, std::chrono::milliseconds timeout) {
  std::unique_ptr<addrinfo, AddrInfoFree> res;
  if (const int rc = resolve(address, false, &res); rc != 0) return rc;
  const int fd = ::socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return -errno;
  int rc = ::connect(fd, res->ai_addr, res->ai_addrlen);
  if (rc != 0 && errno == EINPROGRESS) {
    pollfd p{fd, POLLOUT, 0};
    rc = ::poll(&p, 1, static_cast<int>(timeout.count()));
    int err = 0;
    socklen_t len = sizeof err;
    if (rc == 0) {
      err = ETIMEDOUT;
    } else if (rc > 0) {
      getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
    } else {
      err = errno;
    }
    errno = err;
    rc = err == 0 ? 0 : -1;
  }
  if (rc != 0) {
    const int err = errno;
    ::close(fd);
    return -err;
  }
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

int listen_tcp(const std::string& address) {
  std::unique_ptr<addrinfo, AddrInfoFree> res;
  if (const int rc = resolve(address, true, &res); rc != 0) return rc;
  const int fd = ::socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -errno;
  const int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (::bind(fd, res->ai_addr, res->ai_addrlen) != 0 || ::listen(fd, 16) != 0) {
    const int err = errno;
    ::close(fd);
    return -err;
  }
  return fd;
}

int accept_tcp(int listen_fd) {
  const int fd = ::accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
  if (fd < 0) return -errno;
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

int bound_port(int fd) {
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len) != 0) return -errno;
  if (ss.ss_family == AF_INET6) return ntohs(reinterpret_cast<sockaddr_in6*>(&ss)->sin6_port);
  return ntohs(reinterpret_cast<sockaddr_in*>(&ss)->sin_port);
}

}  // namespace tierwise::replication
