// The agent's health, reported to the agent gateway (PUT /v1/agent/health
// with the agent credential, docs/agent-gateway.md) every health interval by
// a background thread; the api shows it in GET /v1/agents.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace tierwise::agent {

// What the data plane knows of itself at one instant (serve::ServeStatus).
struct HealthSnapshot {
  uint64_t volume_count = 0;
  uint64_t tier_used_bytes = 0;      // bytes of cache tier holding blocks, all volumes
  uint64_t tier_capacity_bytes = 0;  // bytes of cache tier configured now (a policy's size once applied), all volumes
  uint64_t error_count = 0;          // batches rejected or not delivered, spooled batches dropped
  std::string last_error;            // empty: none
};

class HealthReporter {
 public:
  // Starts the thread: a first report at once, then one every
  // `interval_seconds` (>= 1). `gateway_url` is the agent gateway's base URL.
  HealthReporter(const std::string& gateway_url, std::string credential, std::string version, double interval_seconds);
  // Sends a last report and joins the thread.
  ~HealthReporter();
  HealthReporter(const HealthReporter&) = delete;
  HealthReporter& operator=(const HealthReporter&) = delete;

  // The latest state (any thread); the next report carries it.
  void update(const HealthSnapshot& snapshot);

  // The report's JSON body (the services' agentHealthSchema); uptime in seconds.
  static std::string report_json(const HealthSnapshot& s, const std::string& version, uint64_t uptime_seconds,
                                 uint64_t own_errors, const std::string& own_last_error);

 private:
  void loop();
  void send_one();

  const std::string url_;
  const std::string credential_;
  const std::string version_;
  const std::chrono::milliseconds interval_;
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  HealthSnapshot latest_;
  uint64_t failed_reports_ = 0;  // reports the gateway did not take (counted as errors)
  std::string last_report_error_;
  std::thread thread_;
};

}  // namespace tierwise::agent
