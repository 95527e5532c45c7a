#include "agent/health_reporter.hpp"

#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "agent/gateway_client.hpp"

namespace tierwise::agent {

HealthReporter::HealthReporter(const std::string& gateway_url, std::string credential, std::string version,
                               double interval_seconds)
    : url_(gateway_url + "/v1/agent/health"),
      credential_(std::move(credential)),
      version_(std::move(version)),
      interval_(std::llround(interval_seconds * 1000)) {
  thread_ = std::thread([this] { loop(); });
}

HealthReporter::~HealthReporter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void HealthReporter::update(const HealthSnapshot& snapshot) {
  std::lock_guard lock(mutex_);
  latest_ = snapshot;
}

std::string HealthReporter::report_json(const HealthSnapshot& s, const std::string& version, uint64_t uptime_seconds,
                                        uint64_t own_errors, const std::string& own_last_error) {
  const std::string& last = !s.last_error.empty() ? s.last_error : own_last_error;
  nlohmann::json body = {{"version", version},
                         {"uptime_seconds", uptime_seconds},
                         {"volume_count", s.volume_count},
                         {"tier_used_bytes", s.tier_used_bytes},
                         {"tier_capacity_bytes", s.tier_capacity_bytes},
                         {"error_count", s.error_count + own_errors},
                         {"last_error", last.empty() ? nlohmann::json(nullptr) : nlohmann::json(last.substr(0, 1000))}};
  return body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void HealthReporter::send_one() {
  std::string body;
  {
    std::lock_guard lock(mutex_);
    const auto uptime = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started_);
    body = report_json(latest_, version_, static_cast<uint64_t>(uptime.count()), failed_reports_, last_report_error_);
  }
  const GatewayAnswer answer = send_json("PUT", url_, credential_, body);
  if (answer.status == 200) return;
  const std::string problem = "health report refused: " + describe(answer, url_);
  std::fprintf(stderr, "tierwise-agent: %s\n", problem.c_str());
  std::lock_guard lock(mutex_);
  ++failed_reports_;
  last_report_error_ = problem;
}

void HealthReporter::loop() {
  std::unique_lock lock(mutex_);
  while (true) {
    lock.unlock();
    send_one();
    lock.lock();
    if (stopping_) return;
    wake_.wait_for(lock, interval_, [this] { return stopping_; });
    if (stopping_) {
      lock.unlock();
      send_one();  // the last state before the agent stops
      return;
    }
  }
}

}  // namespace tierwise::agent
