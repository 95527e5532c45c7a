// Background HTTP delivery of export batches to ingest (through net/, the
// agent's HTTP client), with a bounded queue, retries and per-caller delivery
// statistics.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "net/http_client.hpp"

namespace tierwise::exporter {

class Spool;  // export/spool.hpp

// Ingest endpoints (services/ingest; proto/METRICS.md).
enum class Endpoint : uint8_t {
  kMetrics,           // POST <ingest>/v1/metrics, an OTLP ExportMetricsServiceRequest
  kRefs,              // POST <ingest>/v1/refs, a tierwise.v1.ReferenceBatch (spooled by older agents)
  kReferenceBatches,  // POST <ingest>/v1/refs/batches, a tierwise.v1.ReferenceBatches
};

// The path of `endpoint` under the ingest URL, e.g. "/v1/refs/batches".
const char* endpoint_path(Endpoint endpoint);

// One body to POST.
struct Batch {
  Endpoint endpoint = Endpoint::kMetrics;
  std::string body;      // serialized protobuf
  std::string batch_id;  // X-Tierwise-Batch-Id (a UUID); ingest accepts a retry once
  size_t stream = 0;     // caller's label for statistics (the replay: trace index)
};

// What became of the batches of one stream.
struct DeliveryStats {
  uint64_t sent = 0;      // accepted with 2xx
  uint64_t rejected = 0;  // refused with a 4xx other than 429: not retried
  uint64_t failed = 0;    // not delivered after the last retry (network, 5xx, 429)
  uint64_t retries = 0;   // extra attempts made
  uint64_t bytes_sent = 0;
  std::map<long, uint64_t> rejected_by_status;  // HTTP status -> batches
  // The first rejection or failure, e.g. "HTTP 401 Unauthorized: {...body...}".
  std::string first_problem;
};

// What became of the batches that went through the disk spool (all streams:
// a spool outlives the run, so a spooled batch has no stream).
struct SpoolStats {
  uint64_t spooled = 0;          // batches written to the spool by this sender
  uint64_t sent_from_spool = 0;  // spooled batches (this run's or earlier) accepted with 2xx
  uint64_t rejected = 0;         // spooled batches refused with a 4xx other than 429 (deleted)
  uint64_t dropped = 0;          // batches deleted at the size bound (Spool: oldest first)
  uint64_t left = 0;             // batches in the spool now
  std::string directory;
  std::string first_problem;     // first rejection of a spooled batch
};

struct SenderConfig {
  std::string ingest_url;  // base URL, e.g. http://127.0.0.1:4318 (no path)
  std::string token;       // sent as Authorization: Bearer <token>; empty: no Authorization
  std::string user_agent = "tierwise-agent";
  std::vector<std::string> headers;  // extra "Name: value" lines sent with every batch
  size_t queue_capacity = 256;  // batches waiting; enqueue() blocks beyond (see drop_when_full)
  // enqueue() drops a batch (counted as failed) instead of blocking when the queue is full.
  bool drop_when_full = false;
  int max_attempts = 6;         // per batch, the first try included
  std::chrono::milliseconds initial_backoff{250};  // doubles per retry
  std::chrono::milliseconds max_backoff{30000};    // also caps Retry-After
  std::chrono::milliseconds connect_timeout{5000};
  std::chrono::milliseconds request_timeout{60000};
  // Disk spool for batches ingest cannot take (export/spool.hpp); empty: none,
  // such batches are counted as failed.
  std::string spool_dir;
  uint64_t spool_max_bytes = 256ull << 20;  // bound of the spool's files, bytes
  // A second destination: any OpenTelemetry collector's OTLP/HTTP receiver (base URL,
  // e.g. http://otel-collector:4318; the metrics go to <url>/v1/metrics), with its own
  // headers (e.g. "Authorization: Basic ..."). It gets a copy of every metrics batch,
  // never the ReferenceBatches; best effort: no spool, 3 attempts, dropped (and counted)
  // when 256 batches wait, so an unreachable collector never holds the export up.
  std::string collector_url;
  std::vector<std::string> collector_headers;
};

/*
 * Lifecycle of an HttpSender
 *
 * 1. Construct: validates the config (std::invalid_argument for an empty URL or
 *    a zero queue) and starts the sender thread with one net::EasyHandle
 *    (connections are kept alive between batches).
 * 2. enqueue(): hands a batch to the thread; blocks only while the queue is full,
 *    so the producer runs ahead of the network by up to queue_capacity batches.
 * 3. The thread POSTs each batch (Content-Type application/x-protobuf,
 *    Authorization: Bearer, X-Tierwise-Batch-Id) in order:
 *      2xx                     -> sent;
 *      4xx other than 429      -> rejected: status line and body are kept, the
 *                                 first of each status is printed on stderr,
 *                                 never retried;
 *      429, 5xx, network error -> retried after initial_backoff * 2^(n-1) with
 *                                 jitter, capped at max_backoff, and never
 *                                 sooner than a Retry-After the server gave
 *                                 (export/retry_delay.hpp); after
 *                                 max_attempts it is counted as failed. After a
 *                                 failure, later batches get a single attempt
 *                                 until one gets through (the ingest is down:
 *                                 do not stall the drain for minutes per batch).
 *    With a spool_dir, a batch that failed after its attempts is written to the
 *    disk spool instead of being counted as failed; while the spool holds
 *    batches, new batches are spooled too (send order = enqueue order), and
 *    the thread sends the spool's oldest batch, deleting it after a 2xx or a
 *    4xx other than 429 (rejected). A retryable failure of a spooled batch
 *    backs off as above (initial_backoff * 2^(n-1), capped at max_backoff, not
 *    sooner than Retry-After); batches enqueued meanwhile go to the spool. Batches a
 *    previous run left in the spool are sent before anything else.
 * 4. drain(): waits until every queued batch was sent, rejected or failed and
 *    the spool is empty; drain_for() gives up after a timeout. Both wait for the
 *    collector too (config.collector_url: a second HttpSender fed a copy of
 *    each metrics batch by enqueue()).
 * 5. stop() (also run by the destructor): handles the batches still queued
 *    (sent, or spooled when the spool holds batches), then stops and joins the
 *    thread; spooled batches stay on disk for the next sender. Statistics stay
 *    readable; enqueue() must not be called afterwards.
 */
class HttpSender {
 public:
  // Throws std::invalid_argument for a bad config and std::runtime_error when
  // the spool directory cannot be created or read.
  explicit HttpSender(SenderConfig config);
  ~HttpSender();
  HttpSender(const HttpSender&) = delete;
  HttpSender& operator=(const HttpSender&) = delete;

  void enqueue(Batch batch);
  // The collector's sender (config.collector_url), or null; its stats(stream) count the
  // copies of that stream's metrics batches.
  const HttpSender* collector() const { return collector_.get(); }
  void drain();
  // drain() for at most `timeout`; true when everything was delivered (queue
  // and spool empty), false when batches are still queued or spooled.
  bool drain_for(std::chrono::milliseconds timeout);
  // Lifecycle step 5; idempotent.
  void stop();
  // Statistics of one stream so far (zeros for a stream never seen).
  DeliveryStats stats(size_t stream) const;
  // Statistics of the disk spool (zeros without a spool_dir).
  SpoolStats spool_stats() const;

 private:
  void run();
  void handle(Batch batch);
  // POSTs with retries; false when the batch is to be spooled (retryable
  // failure with a spool), true when it was sent, rejected or counted as failed.
  bool deliver(const Batch& batch);
  void to_spool(const Batch& batch);
  void send_spooled();
  net::Response post(const Batch& batch);
  // The wait before retry `attempt` (export/retry_delay.hpp); 0: no Retry-After.
  std::chrono::milliseconds backoff(int attempt, long retry_after_seconds = 0);
  void record_problem(const Batch& batch, const std::string& problem, bool print);

  SenderConfig config_;
  net::EasyHandle http_;  // used by the sender thread only
  bool degraded_ = false;  // last batch failed: single attempts until one succeeds
  std::unique_ptr<Spool> spool_;        // used by the sender thread only
  int spool_failures_ = 0;              // failed attempts in a row at the spool's oldest batch
  std::mt19937_64 rng_{std::random_device{}()};  // backoff jitter

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Batch> queue_;
  bool busy_ = false;
  bool stopping_ = false;
  uint64_t spooled_now_ = 0;  // batches in the spool (mirrors spool_ for drain())
  std::chrono::steady_clock::time_point next_spool_try_{};
  std::vector<DeliveryStats> stats_;
  SpoolStats spool_stats_;
  std::set<long> printed_status_;  // statuses already reported on stderr
  std::unique_ptr<HttpSender> collector_;  // config_.collector_url: the second destination
  bool printed_failure_ = false;
  std::thread thread_;
};

}  // namespace tierwise::exporter
