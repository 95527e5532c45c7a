// Policy pull: long-polls the desired policies of the agent's volumes from
// ingest and posts back what was applied (docs/policies.md), on its own
// thread through net/ (the agent's HTTP client).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "net/http_client.hpp"
#include "policy/policy_document.hpp"

namespace tierwise::policy {

struct PolicyClientConfig {
  std::string service_url;  // ingest base URL, e.g. http://127.0.0.1:4318 (no path)
  std::string token;        // Authorization: Bearer <agent token>
  std::string user_agent = "tierwise-agent";
  std::vector<std::string> volume_ids;  // keyed hashes of the served volumes' names
  int wait_seconds = 25;                // Prefer: wait=N of each long-poll (1..25)
  std::chrono::milliseconds connect_timeout{5000};
  std::chrono::milliseconds initial_backoff{500};  // after a failure; doubles
  std::chrono::milliseconds max_backoff{30000};
};

/*
 * Lifecycle of a PolicyClient
 *
 * 1. Construct: checks the config (std::invalid_argument for an empty URL or
 *    token, no volumes, or more than 500 of them), creates the eventfd and
 *    starts the thread.
 * 2. The thread loops: posts the applied reports handed to it (report()), then
 *    GET <url>/v1/agent/policies?volumes=<ids> with If-None-Match: <last ETag>
 *    and Prefer: wait=<wait_seconds>. 200: the policies whose version differs
 *    from the last one taken for their volume are queued and the eventfd is
 *    written; 304: nothing changed; failures (network, 5xx, 4xx) are printed
 *    once per kind and retried after a doubling backoff. A report() wakes a
 *    waiting long-poll at once (net::Request::cancel), so reports never
 *    wait for the poll's end.
 * 3. The owner watches wake_fd() in its event loop; take() returns the queued
 *    policies (reactor thread), which it applies and hands back as reports.
 *    A report that fails to post is kept and retried with the next loop.
 * 4. stop() (also the destructor): ends the long-poll within a second, posts
 *    the pending reports once, joins the thread.
 */
class PolicyClient {
 public:
  explicit PolicyClient(PolicyClientConfig config);
  ~PolicyClient();
  PolicyClient(const PolicyClient&) = delete;
  PolicyClient& operator=(const PolicyClient&) = delete;

  // Readable (eventfd) while take() has policies; the owner reads it to clear it.
  int wake_fd() const { return wake_fd_; }
  // New desired policies since the last call (any thread).
  std::vector<VolumePolicy> take();
  // Queues applied reports for posting (any thread).
  void report(std::vector<AppliedReport> reports);
  // Lifecycle step 4; idempotent.
  void stop();

  // Counts for tests and the log: documents received, reports posted.
  uint64_t documents() const { return documents_.load(); }
  uint64_t reports_posted() const { return reports_posted_.load(); }

 private:
  void run();
  bool post_reports();
  bool poll_once();
  // GET `url` (the long-poll, cut short by interrupt_) when `body` is null, else POST `body`.
  net::Response request(const std::string& url, std::vector<std::string> headers, const std::string* body);
  void problem(const std::string& text);

  PolicyClientConfig config_;
  std::string volumes_query_;
  net::EasyHandle http_;  // thread only
  int wake_fd_ = -1;
  std::string etag_;                                   // thread only
  std::vector<std::pair<std::string, int64_t>> taken_;  // thread only: volume id -> last version queued
  std::string last_problem_;                            // thread only

  std::mutex mutex_;
  std::condition_variable changed_;  // reports queued or stop(): ends a backoff
  std::deque<VolumePolicy> pending_;
  std::vector<AppliedReport> reports_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> interrupt_{false};  // ends the current long-poll (a report is waiting, or stop)
  std::atomic<uint64_t> documents_{0};
  std::atomic<uint64_t> reports_posted_{0};
  std::thread thread_;
};

}  // namespace tierwise::policy
