// The agent's one HTTP client: the only code that calls libcurl. The telemetry
// sender (export/), the policy client (policy/) and the JSON calls of the
// installed agent (agent/) send their requests through it and keep their own
// logic (retries, spool, long-poll, JSON).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace tierwise::net {

// One request. `body` is sent for any method but GET (POST: a plain POST,
// other methods as a custom request with the body), with its length as
// Content-Length; it must stay valid until the request returns.
struct Request {
  std::string method = "GET";        // GET, POST, PUT
  std::string url;                   // the whole URL: base, path and query
  std::vector<std::string> headers;  // "Name: value" lines; "Expect:" turns 100-continue off
  std::string_view body;
  std::string user_agent = "tierwise-agent";
  std::chrono::milliseconds connect_timeout{5000};  // to establish the connection
  std::chrono::milliseconds timeout{60000};         // the whole request, connection included
  size_t max_body_bytes = std::numeric_limits<size_t>::max();  // of the answer's body, the rest is read and dropped
  // When set, the request is abandoned as soon as it reads true (checked by
  // libcurl's progress callback, at least once a second): Error::kCancelled.
  const std::atomic<bool>* cancel = nullptr;
};

// Why no HTTP answer came.
enum class Error : uint8_t {
  kNone,       // an HTTP answer came (any status, 4xx and 5xx included)
  kTransient,  // the server may come back: name not resolved, connection refused,
               // timeout, send/receive error, empty or cut answer
  kCancelled,  // Request::cancel turned true
  kFailed,     // anything else (bad URL, TLS, out of memory): retrying will not help
};

// The answer to one request.
struct Response {
  Error error = Error::kNone;
  std::string error_text;   // libcurl's message when error != kNone, e.g. "Failed to connect to ..."
  long status = 0;          // HTTP status; 0 when error != kNone
  std::string status_line;  // e.g. "HTTP/1.1 401 Unauthorized" (the last one received)
  std::string body;         // at most Request::max_body_bytes
  std::string etag;         // the ETag header's value; empty: none
  long retry_after_seconds = 0;  // the Retry-After header (seconds or a date); 0: none

  bool answered() const { return error == Error::kNone; }
};

/*
 * Lifecycle of libcurl in the agent
 *
 * 1. Global init: the first EasyHandle (or request(Request)) runs
 *    curl_global_init once for the process (std::call_once); it is never
 *    cleaned up (the process ends with it).
 * 2. An EasyHandle owns one libcurl easy handle (RAII: curl_easy_cleanup in
 *    the destructor). Its connections stay open between requests (keep-alive),
 *    so a thread that sends many requests keeps one handle. A handle is used
 *    by one thread at a time.
 * 3. request(handle, r) resets the handle's options, sends `r` and blocks until
 *    the answer is read, `r.timeout` passed, or `r.cancel` turned true. It
 *    never throws for a network problem or an HTTP status: both are in the
 *    Response. No signal is used (CURLOPT_NOSIGNAL), so any thread may call it.
 * 4. request(r) does the same on a handle of its own, closed afterwards (no
 *    connection reuse): for occasional requests.
 */
class EasyHandle {
 public:
  // Throws std::runtime_error when libcurl cannot make a handle.
  EasyHandle();
  ~EasyHandle();
  EasyHandle(EasyHandle&& other) noexcept;
  EasyHandle& operator=(EasyHandle&& other) noexcept;
  EasyHandle(const EasyHandle&) = delete;
  EasyHandle& operator=(const EasyHandle&) = delete;

  void* get() const { return handle_; }  // the CURL*

 private:
  void* handle_ = nullptr;
};

// Lifecycle step 3.
Response request(EasyHandle& handle, const Request& r);

// Lifecycle step 4; a handle that cannot be made is an answer with
// Error::kFailed (never throws).
Response request(const Request& r);

}  // namespace tierwise::net
