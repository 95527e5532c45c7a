#include "export/http_sender.hpp"

#include "export/retry_delay.hpp"
#include "export/spool.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace tierwise::exporter {
namespace {

constexpr size_t kMaxKeptBody = 512;  // bytes of an error body kept for the report

// "HTTP 401 Unauthorized" from "HTTP/1.1 401 Unauthorized" (or "HTTP 401").
std::string describe_status(long status, const std::string& status_line) {
  const size_t first = status_line.find(' ');
  const size_t second = first == std::string::npos ? first : status_line.find(' ', first + 1);
  std::string text = "HTTP " + std::to_string(status);
  if (second != std::string::npos) text += status_line.substr(second);
  return text;
}

}  // namespace

const char* endpoint_path(Endpoint endpoint) {
  switch (endpoint) {
    case Endpoint::kMetrics:
      return "/v1/metrics";
    case Endpoint::kRefs:
      return "/v1/refs";
    case Endpoint::kReferenceBatches:
      return "/v1/refs/batches";
  }
  return "/v1/metrics";  // unreachable: every Endpoint is a case
}

HttpSender::HttpSender(SenderConfig config) : config_(std::move(config)) {
  while (!config_.ingest_url.empty() && config_.ingest_url.back() == '/') {
    config_.ingest_url.pop_back();
  }
  if (config_.ingest_url.empty()) throw std::invalid_argument("ingest URL is empty");
  if (config_.queue_capacity == 0) throw std::invalid_argument("sender queue capacity is 0");
  if (config_.max_attempts < 1) throw std::invalid_argument("max_attempts must be >= 1");
  for (const std::string& h : config_.headers) {
    if (h.find(':') == std::string::npos || h.find_first_of("\r\n") != std::string::npos) {
      throw std::invalid_argument("header must be one \"Name: value\" line: " + h);
    }
  }
  if (!config_.collector_url.empty()) {
    SenderConfig c;
    c.ingest_url = config_.collector_url;
    c.user_agent = config_.user_agent;
    c.headers = config_.collector_headers;
    c.drop_when_full = true;
    c.max_attempts = 3;
    c.connect_timeout = config_.connect_timeout;
    collector_ = std::make_unique<HttpSender>(std::move(c));
  }
  if (!config_.spool_dir.empty()) {
    spool_ = std::make_unique<Spool>(config_.spool_dir, config_.spool_max_bytes);
    spooled_now_ = spool_->size();
    spool_stats_.directory = spool_->directory();
    spool_stats_.left = spooled_now_;
    if (spooled_now_ > 0) {
      std::fprintf(stderr, "tierwise-agent: %llu batches left in the spool %s by an earlier run are sent first\n",
                   static_cast<unsigned long long>(spooled_now_), spool_->directory().c_str());
    }
  }
  thread_ = std::thread([this] { run(); });
}

HttpSender::~HttpSender() { stop(); }

void HttpSender::stop() {
  if (collector_) collector_->stop();
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void HttpSender::enqueue(Batch batch) {
  if (collector_ && batch.endpoint == Endpoint::kMetrics) {
    collector_->enqueue(Batch{Endpoint::kMetrics, batch.body, "", batch.stream});
  }
  std::unique_lock lock(mutex_);
  if (config_.drop_when_full && queue_.size() >= config_.queue_capacity) {
    if (stats_.size() <= batch.stream) stats_.resize(batch.stream + 1);
    ++stats_[batch.stream].failed;
    return;
  }
  changed_.wait(lock, [this] { return queue_.size() < config_.queue_capacity; });
  queue_.push_back(std::move(batch));
  changed_.notify_all();
}

void HttpSender::drain() {
  if (collector_) collector_->drain();
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return queue_.empty() && !busy_ && spooled_now_ == 0; });
}

bool HttpSender::drain_for(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::unique_lock lock(mutex_);
  const bool drained = changed_.wait_until(lock, deadline,
                                           [this] { return queue_.empty() && !busy_ && spooled_now_ == 0; });
  lock.unlock();
  return (!collector_ || collector_->drain_for(std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::max(deadline - std::chrono::steady_clock::now(), std::chrono::steady_clock::duration{})))) &&
         drained;
}

DeliveryStats HttpSender::stats(size_t stream) const {
  std::lock_guard lock(mutex_);
  return stream < stats_.size() ? stats_[stream] : DeliveryStats{};
}

SpoolStats HttpSender::spool_stats() const {
  std::lock_guard lock(mutex_);
  SpoolStats s = spool_stats_;
  s.left = spooled_now_;
  return s;
}

void HttpSender::run() {
  for (;;) {
    Batch batch;
    bool from_queue = false;
    {
      std::unique_lock lock(mutex_);
      for (;;) {
        // The spool's oldest batch goes first when its backoff is over; queued
        // batches are taken (and spooled) meanwhile. Stopping: queue only.
        if (spooled_now_ > 0 && !stopping_ && std::chrono::steady_clock::now() >= next_spool_try_) break;
        if (!queue_.empty()) {
          batch = std::move(queue_.front());
          queue_.pop_front();
          from_queue = true;
          break;
        }
        if (stopping_) return;
        if (spooled_now_ > 0) {
          changed_.wait_until(lock, next_spool_try_);
        } else {
          changed_.wait(lock);
        }
      }
      busy_ = true;
    }
    changed_.notify_all();  // room in the queue
    if (from_queue) {
      handle(std::move(batch));
    } else {
      send_spooled();
    }
    {
      std::lock_guard lock(mutex_);
      busy_ = false;
      if (spool_) spooled_now_ = spool_->size();
    }
    changed_.notify_all();
  }
}

void HttpSender::handle(Batch batch) {
  {
    std::lock_guard lock(mutex_);
    if (stats_.size() <= batch.stream) stats_.resize(batch.stream + 1);
  }
  if (spool_ && !spool_->empty()) {
    to_spool(batch);  // behind the batches already spooled
  } else if (!deliver(batch)) {
    to_spool(batch);  // ingest is down: try the spool again after a backoff
    spool_failures_ = 1;
    std::lock_guard lock(mutex_);
    next_spool_try_ = std::chrono::steady_clock::now() + backoff(spool_failures_);
  }
}

void HttpSender::to_spool(const Batch& batch) {
  uint64_t dropped = 0;
  try {
    dropped = spool_->push(batch);
  } catch (const std::runtime_error& e) {
    std::lock_guard lock(mutex_);
    ++stats_[batch.stream].failed;
    if (stats_[batch.stream].first_problem.empty()) stats_[batch.stream].first_problem = e.what();
    std::fprintf(stderr, "tierwise-agent: batch %s lost: %s\n", batch.batch_id.c_str(), e.what());
    return;
  }
  std::lock_guard lock(mutex_);
  ++spool_stats_.spooled;
  if (dropped > 0 && spool_stats_.dropped == 0) {
    std::fprintf(stderr, "tierwise-agent: the spool %s is full (--spool-max-bytes %llu): dropping its oldest batches\n",
                 spool_->directory().c_str(), static_cast<unsigned long long>(config_.spool_max_bytes));
  }
  spool_stats_.dropped += dropped;
}

void HttpSender::send_spooled() {
  Batch batch;
  try {
    batch = spool_->front();
  } catch (const std::runtime_error& e) {  // unreadable file: it can never be sent
    std::fprintf(stderr, "tierwise-agent: deleting it: %s\n", e.what());
    spool_->pop();
    std::lock_guard lock(mutex_);
    ++spool_stats_.rejected;
    if (spool_stats_.first_problem.empty()) spool_stats_.first_problem = e.what();
    return;
  }
  const net::Response r = post(batch);
  const bool ok = r.answered() && r.status >= 200 && r.status < 300;
  const bool refused = r.answered() && r.status >= 400 && r.status < 500 && r.status != 429;
  if (ok || refused) {
    spool_->pop();
    spool_failures_ = 0;
    degraded_ = false;
    std::lock_guard lock(mutex_);
    next_spool_try_ = std::chrono::steady_clock::time_point{};
    if (ok) {
      ++spool_stats_.sent_from_spool;
      return;
    }
    ++spool_stats_.rejected;
    const std::string problem = describe_status(r.status, r.status_line) + (r.body.empty() ? "" : ": " + r.body);
    if (spool_stats_.first_problem.empty()) spool_stats_.first_problem = problem;
    if (printed_status_.insert(r.status).second) {
      std::fprintf(stderr, "tierwise-agent: ingest refused spooled batch %s (POST %s): %s\n",
                   batch.batch_id.c_str(), endpoint_path(batch.endpoint), problem.c_str());
    }
    return;
  }
  ++spool_failures_;
  const auto delay = backoff(spool_failures_, r.retry_after_seconds);
  std::lock_guard lock(mutex_);
  next_spool_try_ = std::chrono::steady_clock::now() + delay;
}

net::Response HttpSender::post(const Batch& batch) {
  net::Request r;
  r.method = "POST";
  r.url = config_.ingest_url + endpoint_path(batch.endpoint);
  r.headers.push_back("Content-Type: application/x-protobuf");
  if (!config_.token.empty()) r.headers.push_back("Authorization: Bearer " + config_.token);
  for (const std::string& h : config_.headers) r.headers.push_back(h);
  if (!batch.batch_id.empty()) r.headers.push_back("X-Tierwise-Batch-Id: " + batch.batch_id);
  r.headers.push_back("Expect:");  // no 100-continue round trip
  r.body = batch.body;
  r.user_agent = config_.user_agent;
  r.connect_timeout = config_.connect_timeout;
  r.timeout = config_.request_timeout;
  r.max_body_bytes = kMaxKeptBody;
  return net::request(http_, r);
}

std::chrono::milliseconds HttpSender::backoff(int attempt, long retry_after_seconds) {
  return retry_delay(config_.initial_backoff, config_.max_backoff, attempt, retry_after_seconds, rng_);
}

void HttpSender::record_problem(const Batch& batch, const std::string& problem, bool print) {
  std::lock_guard lock(mutex_);
  DeliveryStats& s = stats_[batch.stream];
  if (s.first_problem.empty()) s.first_problem = problem;
  if (print) {
    std::fprintf(stderr, "tierwise-agent: ingest refused batch %s (POST %s): %s\n",
                 batch.batch_id.c_str(), endpoint_path(batch.endpoint), problem.c_str());
  }
}

bool HttpSender::deliver(const Batch& batch) {
  const int attempts = degraded_ ? 1 : config_.max_attempts;
  for (int attempt = 1;; ++attempt) {
    const net::Response r = post(batch);
    const bool ok = r.answered() && r.status >= 200 && r.status < 300;
    if (ok) {
      std::lock_guard lock(mutex_);
      ++stats_[batch.stream].sent;
      stats_[batch.stream].bytes_sent += batch.body.size();
      degraded_ = false;
      return true;
    }
    const bool retryable =
        r.answered() ? (r.status == 429 || r.status >= 500) : r.error == net::Error::kTransient;
    std::string problem = r.answered() ? describe_status(r.status, r.status_line)
                                       : std::string("network error: ") + r.error_text;
    if (r.answered() && !r.body.empty()) problem += ": " + r.body;

    if (r.answered() && r.status >= 400 && r.status < 500 && r.status != 429) {
      bool first_of_status = false;
      {
        std::lock_guard lock(mutex_);
        ++stats_[batch.stream].rejected;
        ++stats_[batch.stream].rejected_by_status[r.status];
        first_of_status = printed_status_.insert(r.status).second;
      }
      record_problem(batch, problem, first_of_status);
      return true;  // delivered: ingest answered, and will answer the same again
    }
    if (!retryable || attempt >= attempts) {
      if (retryable) degraded_ = true;
      const bool spooling = retryable && spool_;
      bool first_failure = false;
      {
        std::lock_guard lock(mutex_);
        if (!spooling) ++stats_[batch.stream].failed;
        first_failure = !printed_failure_;
        printed_failure_ = true;
      }
      if (spooling) {
        if (first_failure) {
          std::fprintf(stderr, "tierwise-agent: ingest unreachable (%s); spooling batches to %s\n",
                       problem.c_str(), spool_->directory().c_str());
        }
        return false;
      }
      record_problem(batch, problem + " (after " + std::to_string(attempt) + " attempts)",
                     first_failure);
      return true;  // counted as failed
    }
    const auto delay = backoff(attempt, r.retry_after_seconds);
    {
      std::lock_guard lock(mutex_);
      ++stats_[batch.stream].retries;
    }
    std::this_thread::sleep_for(delay);
  }
}

}  // namespace tierwise::exporter
