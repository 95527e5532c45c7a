#include "net/http_client.hpp"

#include <curl/curl.h>
#include <strings.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <utility>

namespace tierwise::net {
namespace {

std::once_flag global_init_once;

void global_init() {
  std::call_once(global_init_once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// Where the callbacks of one request write.
struct Transfer {
  Response* response;
  size_t max_body_bytes;
};

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t n = size * count;
  std::string& body = t->response->body;
  if (body.size() < t->max_body_bytes) body.append(data, std::min(n, t->max_body_bytes - body.size()));
  return n;
}

// Trailing CR, LF and blanks off.
std::string trimmed_end(std::string text) {
  while (!text.empty() && (text.back() == '\r' || text.back() == '\n' || text.back() == ' ' || text.back() == '\t')) {
    text.pop_back();
  }
  return text;
}

// Keeps the status line ("HTTP/1.1 200 OK") and the ETag header's value.
size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t n = size * count;
  const std::string line(data, n);
  if (line.rfind("HTTP/", 0) == 0) {
    t->response->status_line = trimmed_end(line);
  } else if (line.size() > 5 && strncasecmp(line.c_str(), "etag:", 5) == 0) {
    std::string value = line.substr(5);
    value.erase(0, value.find_first_not_of(" \t"));
    t->response->etag = trimmed_end(std::move(value));
  }
  return n;
}

int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return static_cast<const std::atomic<bool>*>(user)->load() ? 1 : 0;
}

Error error_of(CURLcode code) {
  switch (code) {
    case CURLE_OK:
      return Error::kNone;
    case CURLE_ABORTED_BY_CALLBACK:
      return Error::kCancelled;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
      return Error::kTransient;
    default:
      return Error::kFailed;
  }
}

}  // namespace

EasyHandle::EasyHandle() {
  global_init();
  handle_ = curl_easy_init();
  if (handle_ == nullptr) throw std::runtime_error("curl_easy_init failed");
}

EasyHandle::~EasyHandle() {
  if (handle_ != nullptr) curl_easy_cleanup(static_cast<CURL*>(handle_));
}

EasyHandle::EasyHandle(EasyHandle&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}

EasyHandle& EasyHandle::operator=(EasyHandle&& other) noexcept {
  if (this != &other) {
    if (handle_ != nullptr) curl_easy_cleanup(static_cast<CURL*>(handle_));
    handle_ = std::exchange(other.handle_, nullptr);
  }
  return *this;
}

Response request(EasyHandle& handle, const Request& r) {
  CURL* curl = static_cast<CURL*>(handle.get());
  Response response;
  Transfer transfer{&response, r.max_body_bytes};
  char error[CURL_ERROR_SIZE] = {0};
  curl_slist* headers = nullptr;
  for (const std::string& h : r.headers) headers = curl_slist_append(headers, h.c_str());

  curl_easy_reset(curl);
  curl_easy_setopt(curl, CURLOPT_URL, r.url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  if (r.method == "POST") {
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
  } else if (r.method != "GET") {
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, r.method.c_str());
  }
  if (r.method != "GET") {
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, r.body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(r.body.size()));
  }
  curl_easy_setopt(curl, CURLOPT_USERAGENT, r.user_agent.c_str());
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(r.connect_timeout.count()));
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(r.timeout.count()));
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &transfer);
  if (r.cancel != nullptr) {
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, r.cancel);
  }

  const CURLcode code = curl_easy_perform(curl);
  curl_slist_free_all(headers);
  response.error = error_of(code);
  if (code != CURLE_OK) {
    response.error_text = error[0] != '\0' ? error : curl_easy_strerror(code);
    return response;
  }
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
  curl_off_t retry_after = 0;
  if (curl_easy_getinfo(curl, CURLINFO_RETRY_AFTER, &retry_after) == CURLE_OK) {
    response.retry_after_seconds = static_cast<long>(retry_after);
  }
  return response;
}

Response request(const Request& r) {
  try {
    EasyHandle handle;
    return request(handle, r);
  } catch (const std::runtime_error& e) {
    Response response;
    response.error = Error::kFailed;
    response.error_text = e.what();
    return response;
  }
}

}  // namespace tierwise::net
