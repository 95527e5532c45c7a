// The one HTTP client (src/net) against the test receiver on 127.0.0.1: what
// it sends, what it reads back, and how it reports requests that got no answer.
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <netinet/in.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "export_http_receiver.hpp"
#include "net/http_client.hpp"

namespace tierwise::net {
namespace {

using testing::HttpReceiver;
using testing::ScriptedResponse;

TEST(NetRequest, SendsMethodHeadersAndBodyAndReadsStatusEtagRetryAfterAndBody) {
  HttpReceiver receiver;
  receiver.script({{429, "Too Many Requests", "slow down", {"ETag: \"v7\"", "Retry-After: 3"}}});
  EasyHandle handle;
  Request r;
  r.method = "PUT";
  r.url = receiver.url() + "/v1/agent/health?x=1";
  r.headers = {"Content-Type: application/json", "Authorization: Bearer twa_x"};
  r.body = R"({"a":1})";
  r.user_agent = "tierwise-agent/9.9.9";
  const Response a = request(handle, r);
  EXPECT_TRUE(a.answered());
  EXPECT_EQ(a.error, Error::kNone);
  EXPECT_EQ(a.status, 429);
  EXPECT_EQ(a.status_line, "HTTP/1.1 429 Too Many Requests");
  EXPECT_EQ(a.etag, "\"v7\"");
  EXPECT_EQ(a.retry_after_seconds, 3);
  EXPECT_EQ(a.body, "slow down");

  // The same handle again (keep-alive): a GET sends no body; the options of the last request are gone.
  Request get;
  get.url = receiver.url() + "/v1/agent/policies";
  const Response b = request(handle, get);
  EXPECT_EQ(b.status, 200);
  EXPECT_EQ(b.etag, "");
  EXPECT_EQ(b.retry_after_seconds, 0);

  const auto seen = receiver.requests();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].method, "PUT");
  EXPECT_EQ(seen[0].path, "/v1/agent/health?x=1");
  EXPECT_EQ(seen[0].headers.at("content-type"), "application/json");
  EXPECT_EQ(seen[0].headers.at("authorization"), "Bearer twa_x");
  EXPECT_EQ(seen[0].headers.at("user-agent"), "tierwise-agent/9.9.9");
  EXPECT_EQ(seen[0].body, R"({"a":1})");
  EXPECT_EQ(seen[1].method, "GET");
  EXPECT_EQ(seen[1].body, "");
  EXPECT_EQ(seen[1].headers.count("authorization"), 0u);
  EXPECT_EQ(seen[1].headers.at("user-agent"), "tierwise-agent");
}

TEST(NetRequest, PostKeepsAtMostMaxBodyBytesOfTheAnswer) {
  HttpReceiver receiver;
  receiver.script({{400, "Bad Request", std::string(2000, 'x'), {}}});
  Request r;
  r.method = "POST";
  r.url = receiver.url() + "/v1/metrics";
  r.body = "payload";
  r.max_body_bytes = 512;
  const Response a = request(r);  // a handle of its own
  EXPECT_EQ(a.status, 400);
  EXPECT_EQ(a.body, std::string(512, 'x'));
  ASSERT_EQ(receiver.requests().size(), 1u);
  EXPECT_EQ(receiver.requests()[0].method, "POST");
  EXPECT_EQ(receiver.requests()[0].body, "payload");
}

// A port nothing listens on: bound, never listening.
struct ClosedPort {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  uint16_t port = 0;
  ClosedPort() {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    port = ntohs(addr.sin_port);
  }
  ~ClosedPort() { ::close(fd); }
};

TEST(NetRequest, NoAnswerIsAnErrorWithLibcurlsText) {
  ClosedPort closed;
  Request r;
  r.url = "http://127.0.0.1:" + std::to_string(closed.port) + "/v1/metrics";
  const Response refused = request(r);
  EXPECT_FALSE(refused.answered());
  EXPECT_EQ(refused.error, Error::kTransient) << "connection refused: the server may come back";
  EXPECT_EQ(refused.status, 0);
  EXPECT_NE(refused.error_text.find("127.0.0.1"), std::string::npos) << refused.error_text;

  r.url = "notaprotocol://x";
  const Response bad = request(r);
  EXPECT_EQ(bad.error, Error::kFailed) << bad.error_text;
  EXPECT_FALSE(bad.error_text.empty());
}

TEST(NetRequest, TheCancelFlagEndsAWaitingRequest) {
  // A listener that accepts and never answers (the kernel's backlog accepts the connection).
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(fd, 4), 0);
  ASSERT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  std::atomic<bool> cancel{false};
  Request r;
  r.url = "http://127.0.0.1:" + std::to_string(ntohs(addr.sin_port)) + "/v1/agent/policies";
  r.timeout = std::chrono::milliseconds(30000);
  r.cancel = &cancel;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    cancel = true;
  });
  const auto start = std::chrono::steady_clock::now();
  const Response a = request(r);
  canceller.join();
  ::close(fd);
  EXPECT_EQ(a.error, Error::kCancelled) << a.error_text;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10)) << "ended by the flag, not the timeout";
}

}  // namespace
}  // namespace tierwise::net
