// TCP helpers shared by the owner and peer sides of replication.
#pragma once

#include <chrono>
#include <string>

namespace tierwise::replication {

// Splits "host:port"; throws std::invalid_argument naming the problem.
void split_address(const std::string& address, std::string* host, std::string* port);
// Connects to "host:port" with TCP_NODELAY within `timeout`. Returns the socket
// or -errno (-EINVAL for a malformed address, -ETIMEDOUT).
int connect_tcp(const std::string& address, std::chrono::milliseconds timeout);
// Listens on "host:port" (port 0: any free port). Returns the socket or -errno.
int listen_tcp(const std::string& address);
// Accepts one connection with TCP_NODELAY (both sides write small frames that
// must not wait for Nagle's algorithm). Returns the socket or -errno.
int accept_tcp(int listen_fd);
// The port a listening socket is bound to.
int bound_port(int fd);

}  // namespace tierwise::replication
