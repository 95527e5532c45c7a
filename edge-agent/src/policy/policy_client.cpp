#include "policy/policy_client.hpp"

#include <curl/curl.h>
#include <strings.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace tierwise::policy {
namespace {

// Most volume ids in one request (ingest's limit; the query string stays < 16 KiB).
constexpr size_t kMaxVolumes = 500;

std::once_flag curl_init_once;

size_t on_body(char* data, size_t size, size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

// Keeps the ETag header's value.
size_t on_header(char* data, size_t size, size_t count, void* user) {
  const size_t n = size * count;
  std::string line(data, n);
  if (line.size() > 5 && strncasecmp(line.c_str(), "etag:", 5) == 0) {
    std::string value = line.substr(5);
    value.erase(0, value.find_first_not_of(" \t"));
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' ')) value.pop_back();
    *static_cast<std::string*>(user) = value;
  }
  return n;
}

int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return static_cast<std::atomic<bool>*>(user)->load() ? 1 : 0;
}

}  // namespace

struct PolicyClient::Response {
  CURLcode code = CURLE_OK;
  long status = 0;
  std::string body;
  std::string etag;
  std::string error;
};

PolicyClient::PolicyClient(PolicyClientConfig config) : config_(std::move(config)) {
  while (!config_.service_url.empty() && config_.service_url.back() == '/') config_.service_url.pop_back();
  if (config_.service_url.empty()) throw std::invalid_argument("policy pull: the service URL is empty");
  if (config_.token.empty()) throw std::invalid_argument("policy pull: no agent token");
  if (config_.volume_ids.empty() || config_.volume_ids.size() > kMaxVolumes) {
    throw std::invalid_argument("policy pull: 1 to " + std::to_string(kMaxVolumes) + " volumes, got " +
                                std::to_string(config_.volume_ids.size()));
  }
  config_.wait_seconds = std::clamp(config_.wait_seconds, 1, 25);
  for (const std::string& id : config_.volume_ids) volumes_query_ += (volumes_query_.empty() ? "" : ",") + id;
  std::call_once(curl_init_once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  curl_ = curl_easy_init();
  if (curl_ == nullptr) throw std::runtime_error("policy pull: curl_easy_init failed");
  wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wake_fd_ < 0) {
    curl_easy_cleanup(static_cast<CURL*>(curl_));
    throw std::runtime_error("policy pull: eventfd failed");
  }
  thread_ = std::thread([this] { run(); });
}

PolicyClient::~PolicyClient() {
  stop();
  curl_easy_cleanup(static_cast<CURL*>(curl_));
  ::close(wake_fd_);
}

void PolicyClient::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    interrupt_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::vector<VolumePolicy> PolicyClient::take() {
  std::lock_guard lock(mutex_);
  std::vector<VolumePolicy> out(pending_.begin(), pending_.end());
  pending_.clear();
  return out;
}

void PolicyClient::report(std::vector<AppliedReport> reports) {
  if (reports.empty()) return;
  {
    std::lock_guard lock(mutex_);
    for (AppliedReport& r : reports) reports_.push_back(std::move(r));
    interrupt_ = true;
  }
  changed_.notify_all();
}

void PolicyClient::run() {
  auto backoff = config_.initial_backoff;
  while (!stopping_) {
    const bool ok = post_reports() && poll_once();
    if (stopping_) break;
    std::unique_lock lock(mutex_);
    if (ok) {
      backoff = config_.initial_backoff;
      continue;
    }
    changed_.wait_for(lock, backoff, [this] { return stopping_.load() || !reports_.empty(); });
    backoff = std::min(backoff * 2, config_.max_backoff);
  }
  post_reports();  // once more at stop: the last application is not lost
}

bool PolicyClient::post_reports() {
  std::vector<AppliedReport> batch;
  {
    std::lock_guard lock(mutex_);
    batch.swap(reports_);
    if (!stopping_) interrupt_ = false;
  }
  if (batch.empty()) return true;
  const std::string body = encode_applied_reports(batch);
  const Response r = request(config_.service_url + "/v1/agent/policies/applied", {"Content-Type: application/json"}, &body);
  if (r.code == CURLE_OK && r.status == 200) {
    reports_posted_ += batch.size();
    return true;
  }
  problem("posting applied reports: " + (r.code != CURLE_OK ? r.error : "HTTP " + std::to_string(r.status) + " " + r.body));
  if (r.code != CURLE_OK || r.status >= 500 || r.status == 429) {  // retryable: keep them, older first
    std::lock_guard lock(mutex_);
    batch.insert(batch.end(), reports_.begin(), reports_.end());
    reports_.swap(batch);
  }
  return false;
}

bool PolicyClient::poll_once() {
  std::vector<std::string> headers;
  if (!etag_.empty()) {
    headers.push_back("If-None-Match: " + etag_);
    headers.push_back("Prefer: wait=" + std::to_string(config_.wait_seconds));
  }
  const Response r = request(config_.service_url + "/v1/agent/policies?volumes=" + volumes_query_, headers, nullptr);
  if (r.code == CURLE_ABORTED_BY_CALLBACK) return true;  // a report or stop() cut the wait short
  if (r.code != CURLE_OK) {
    problem("polling policies: " + r.error);
    return false;
  }
  if (r.status == 304) return true;
  if (r.status != 200) {
    problem("polling policies: HTTP " + std::to_string(r.status) + " " + r.body.substr(0, 300));
    return false;
  }
  PolicyDocument doc;
  try {
    doc = parse_policy_document(r.body);
  } catch (const std::invalid_argument& e) {
    problem(e.what());
    return false;
  }
  last_problem_.clear();
  etag_ = r.etag.empty() ? doc.etag : r.etag;
  ++documents_;
  std::vector<VolumePolicy> fresh;
  for (VolumePolicy& p : doc.policies) {
    auto it = std::find_if(taken_.begin(), taken_.end(), [&](const auto& t) { return t.first == p.volume_id; });
    if (it != taken_.end() && it->second == p.version) continue;
    if (it == taken_.end()) taken_.emplace_back(p.volume_id, p.version);
    else it->second = p.version;
    fresh.push_back(std::move(p));
  }
  if (!fresh.empty()) {
    {
      std::lock_guard lock(mutex_);
      for (VolumePolicy& p : fresh) pending_.push_back(std::move(p));
    }
    const uint64_t one = 1;
    [[maybe_unused]] const ssize_t n = ::write(wake_fd_, &one, sizeof one);
  }
  return true;
}

PolicyClient::Response PolicyClient::request(const std::string& url, const std::vector<std::string>& extra,
                                             const std::string* body) {
  auto* curl = static_cast<CURL*>(curl_);
  Response r;
  char error[CURL_ERROR_SIZE] = {0};
  const std::string auth = "Authorization: Bearer " + config_.token;
  curl_slist* headers = curl_slist_append(nullptr, auth.c_str());
  for (const std::string& h : extra) headers = curl_slist_append(headers, h.c_str());
  curl_easy_reset(curl);
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  if (body != nullptr) {
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body->data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body->size()));
  }
  curl_easy_setopt(curl, CURLOPT_USERAGENT, config_.user_agent.c_str());
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(config_.connect_timeout.count()));
  // The long-poll's wait plus room for the answer.
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>((config_.wait_seconds + 15) * 1000L));
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &r.body);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &r.etag);
  if (body == nullptr) {  // only the long-poll may be cut short
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &interrupt_);
  }
  r.code = curl_easy_perform(curl);
  curl_slist_free_all(headers);
  if (r.code != CURLE_OK) r.error = error[0] != '\0' ? error : curl_easy_strerror(r.code);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &r.status);
  return r;
}

void PolicyClient::problem(const std::string& text) {
  if (text == last_problem_) return;
  last_problem_ = text;
  std::fprintf(stderr, "tierwise-agent: policy pull: %s\n", text.c_str());
}

}  // namespace tierwise::policy
