// A minimal HTTP/1.1 receiver on 127.0.0.1 for the export and replay tests:
// records every request and answers from a script (then 200 OK).
// Plain POSIX sockets; one connection at a time, keep-alive, Content-Length
// bodies only (what libcurl sends for a POST with a known size).
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <deque>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace tierwise::testing {

struct ReceivedRequest {
  std::string method;
  std::string path;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
};

struct ScriptedResponse {
  int status = 200;
  std::string reason = "OK";
  std::string body;
  std::vector<std::string> headers;  // extra "Name: value" lines
};

class HttpReceiver {
 public:
  // Listens on 127.0.0.1:`port`; 0 picks a free port (see url()).
  explicit HttpReceiver(uint16_t port = 0) {
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listen_fd_ < 0) throw std::runtime_error("socket failed");
    const int one = 1;
    ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(port);
    socklen_t len = sizeof addr;
    if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(listen_fd_, 8) != 0 ||
        ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
      ::close(listen_fd_);
      throw std::runtime_error("cannot listen on 127.0.0.1");
    }
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { serve(); });
  }

  ~HttpReceiver() {
    stop_ = true;
    thread_.join();
    ::close(listen_fd_);
  }

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

  // Responses for the next requests, in order; afterwards 200 OK.
  void script(std::vector<ScriptedResponse> responses) {
    std::lock_guard lock(mutex_);
    for (auto& r : responses) script_.push_back(std::move(r));
  }

  std::vector<ReceivedRequest> requests() const {
    std::lock_guard lock(mutex_);
    return requests_;
  }

 private:
  void serve() {
    while (!stop_) {
      pollfd p{listen_fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) continue;
      handle(fd);
      ::close(fd);
    }
  }

  // Reads until `buffer` holds `n` bytes; false on EOF/stop.
  bool fill(int fd, std::string& buffer, size_t n) {
    char chunk[65536];
    while (buffer.size() < n) {
      pollfd p{fd, POLLIN, 0};
      if (stop_) return false;
      if (::poll(&p, 1, 50) <= 0) continue;
      const ssize_t got = ::read(fd, chunk, sizeof chunk);
      if (got <= 0) return false;
      buffer.append(chunk, static_cast<size_t>(got));
    }
    return true;
  }

  void handle(int fd) {
    std::string buffer;
    for (;;) {
      size_t header_end;
      while ((header_end = buffer.find("\r\n\r\n")) == std::string::npos) {
        if (!fill(fd, buffer, buffer.size() + 1)) return;
      }
      ReceivedRequest req;
      const std::string head = buffer.substr(0, header_end);
      size_t line_end = head.find("\r\n");
      const std::string request_line = head.substr(0, line_end);
      const size_t sp1 = request_line.find(' ');
      const size_t sp2 = request_line.find(' ', sp1 + 1);
      req.method = request_line.substr(0, sp1);
      req.path = request_line.substr(sp1 + 1, sp2 - sp1 - 1);
      while (line_end != std::string::npos && line_end < head.size()) {
        const size_t next = head.find("\r\n", line_end + 2);
        const std::string line = head.substr(line_end + 2, next == std::string::npos ? std::string::npos : next - line_end - 2);
        const size_t colon = line.find(':');
        if (colon != std::string::npos) {
          std::string name = line.substr(0, colon);
          std::transform(name.begin(), name.end(), name.begin(), ::tolower);
          size_t v = colon + 1;
          while (v < line.size() && line[v] == ' ') ++v;
          req.headers[name] = line.substr(v);
        }
        line_end = next;
      }
      const size_t length = req.headers.count("content-length") ? std::stoul(req.headers["content-length"]) : 0;
      if (!fill(fd, buffer, header_end + 4 + length)) return;
      req.body = buffer.substr(header_end + 4, length);
      buffer.erase(0, header_end + 4 + length);

      ScriptedResponse response;
      {
        std::lock_guard lock(mutex_);
        requests_.push_back(std::move(req));
        if (!script_.empty()) {
          response = std::move(script_.front());
          script_.pop_front();
        }
      }
      std::string out = "HTTP/1.1 " + std::to_string(response.status) + " " + response.reason + "\r\n";
      for (const auto& h : response.headers) out += h + "\r\n";
      out += "Content-Length: " + std::to_string(response.body.size()) + "\r\n\r\n" + response.body;
      if (::write(fd, out.data(), out.size()) != static_cast<ssize_t>(out.size())) return;
    }
  }

  int listen_fd_ = -1;
  uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  mutable std::mutex mutex_;
  std::deque<ScriptedResponse> script_;
  std::vector<ReceivedRequest> requests_;
  std::thread thread_;
};

}  // namespace tierwise::testing
