#include "policy/policy_client.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace tierwise::policy {
namespace {

// Most volume ids in one request (ingest's limit; the query string stays < 16 KiB).
constexpr size_t kMaxVolumes = 500;

}  // namespace

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
  wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wake_fd_ < 0) throw std::runtime_error("policy pull: eventfd failed");
  thread_ = std::thread([this] { run(); });
}

PolicyClient::~PolicyClient() {
  stop();
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
  const net::Response r = request(config_.service_url + "/v1/agent/policies/applied", {"Content-Type: application/json"}, &body);
  if (r.answered() && r.status == 200) {
    reports_posted_ += batch.size();
    return true;
  }
  problem("posting applied reports: " + (!r.answered() ? r.error_text : "HTTP " + std::to_string(r.status) + " " + r.body));
  if (!r.answered() || r.status >= 500 || r.status == 429) {  // retryable: keep them, older first
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
  const net::Response r = request(config_.service_url + "/v1/agent/policies?volumes=" + volumes_query_, headers, nullptr);
  if (r.error == net::Error::kCancelled) return true;  // a report or stop() cut the wait short
  if (!r.answered()) {
    problem("polling policies: " + r.error_text);
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

net::Response PolicyClient::request(const std::string& url, std::vector<std::string> headers,
                                    const std::string* body) {
  net::Request r;
  r.method = body != nullptr ? "POST" : "GET";
  r.url = url;
  r.headers.push_back("Authorization: Bearer " + config_.token);
  for (std::string& h : headers) r.headers.push_back(std::move(h));
  if (body != nullptr) r.body = *body;
  r.user_agent = config_.user_agent;
  r.connect_timeout = config_.connect_timeout;
  r.timeout = std::chrono::seconds(config_.wait_seconds + 15);  // the long-poll's wait plus room for the answer
  if (body == nullptr) r.cancel = &interrupt_;  // only the long-poll may be cut short
  return net::request(http_, r);
}

void PolicyClient::problem(const std::string& text) {
  if (text == last_problem_) return;
  last_problem_ = text;
  std::fprintf(stderr, "tierwise-agent: policy pull: %s\n", text.c_str());
}

}  // namespace tierwise::policy
