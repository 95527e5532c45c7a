// Telemetry of `tierwise-agent serve`: the replay's per-volume collectors and
// SHARDS reference sampling (one exporter::VolumeExporter), fed by the NBD
// data plane instead of a trace.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cache/cache_engine.hpp"
#include "export/http_sender.hpp"
#include "export/volume_exporter.hpp"
#include "frontend/nbd/volume.hpp"
#include "sampling/keyed_hash.hpp"
#include "serve/cpu_accounting.hpp"
#include "sampling/shards_sampler.hpp"
#include "trace/record.hpp"

namespace tierwise::serve {

// One volume's figures over one closed interval (for the log line).
struct IntervalLine {
  std::string volume;
  uint64_t reads = 0, writes = 0;           // front-end I/Os
  uint64_t read_hit_blocks = 0, read_miss_blocks = 0;
};

/*
 * Lifecycle of a LiveTelemetry
 *
 * 1. Construct with the volumes' names, engines (not owned) and consumer
 *    cgroups, the keyed hasher and sampler, and the sender (null: collect,
 *    never export): one exporter::VolumeExporter volume (resource, collector,
 *    batcher) each, and the CpuAccounting of their storage-bound CPU (it reads
 *    the first interval's baselines).
 * 2. on_io() (the IoObserver hook, reactor thread) appends the completed I/O
 *    to a log of fixed capacity (kLogCapacity) and returns: a copy, nothing
 *    else on the path of the reply. on_turn_end() (after the reactor turn's
 *    replies went out), a full log, close_interval() and finish() record the
 *    log in order: each I/O into its volume's VolumeCollector (sizes, sources,
 *    latencies) and its 4 KiB blocks offered to the volume's ReferenceBatcher
 *    (SHARDS; full batches wait for the interval's close). Recording a turn's I/Os
 *    together keeps the collectors' counters in the CPU cache for all of them
 *    instead of fetching them again after each I/O's socket work. Collectors
 *    only add to fixed arrays; the batcher only grows its pending batch. No
 *    clock is read: latencies and the reference's time come from the engine's
 *    IoOutcome (one clock read at completion serves the engine and every
 *    collector), so deferring changes no figure.
 *    on_issue() (the IoObserver hook, at each command's dispatch) likewise
 *    appends the issued command to a second log, recorded at the same points:
 *    the vscsiStats families of proto/METRICS.md into the volume's collector,
 *    in issue order (seek distances and interarrival from the IssuedIo's
 *    sectors and read time, outstanding I/Os from its in-flight counts).
 *    on_attach() / on_detach() (a client process attached to / detached from
 *    an export over a Unix socket) go to the CpuAccounting: the process's CPU
 *    time is read then, not per I/O.
 * 3. close_interval() (reactor thread, every interval): records the log,
 *    closes the CpuAccounting's interval (/proc/stat once, every consumer),
 *    then for each volume that saw I/O, ends its interval with the engine's
 *    cumulative counters and its CPU usage, and
 *    has the exporter encode the OTLP metrics of the wall-clock window
 *    (previous close, now] and queue them; returns one line per such volume. An I/O counts in the
 *    interval in which it completed, in the vscsiStats families in the one in
 *    which it was issued; the cache counters are taken at the close. Last,
 *    the host's reference batches go to the sender in one request: those
 *    that filled during the interval, and each volume's partial batch that
 *    is kMaxReferenceAgeUs old, so a quiet volume's working set does not wait
 *    for a full batch (or for the agent to stop).
 * 4. finish(): closes the last interval and flushes partial reference batches.
 */
class LiveTelemetry final : public frontend::nbd::IoObserver {
 public:
  struct VolumeSource {
    std::string name;
    const cache::CacheEngine* engine;
    std::string consumer_cgroup = {};  // VolumeConfig::consumer_cgroup; empty: the attached processes
  };
  struct Options {
    std::string host_name;
    std::string cluster_name;  // empty: the host is in no cluster
    bool send_names = false;
    std::string agent_version;
    bool lru_anchor = false;  // ReferenceBatcher's LRU anchor (off: the data plane's default)
    std::string working_set_dir = {};  // VolumeExporter::Options::working_set_dir; empty: not kept
  };

  LiveTelemetry(const Options& options, const std::vector<VolumeSource>& volumes,
                const sampling::KeyedHasher& hasher, const sampling::ShardsSampler& sampler,
                exporter::HttpSender* sender, int64_t start_unix_us);

  // Completed I/Os logged before they are recorded (a reactor turn at queue
  // depth 32 on a few connections completes a few dozen).
  static constexpr size_t kLogCapacity = 256;
  // Oldest a partial reference batch gets before close_interval() sends it,
  // microseconds (proto/METRICS.md: a batch is sent full or a minute old).
  static constexpr int64_t kMaxReferenceAgeUs = 60'000'000;

  void on_io(size_t volume, uint64_t offset, const cache::IoOutcome& outcome) override;
  void on_issue(size_t volume, const frontend::nbd::IssuedIo& io) override;
  void on_turn_end() override;
  void on_attach(size_t volume, pid_t pid) override { cpu_.attach(volume, pid); }
  void on_detach(size_t volume, pid_t pid) override { cpu_.detach(volume, pid); }
  std::vector<IntervalLine> close_interval(int64_t now_unix_us);
  std::vector<IntervalLine> finish(int64_t now_unix_us);

  // Metric requests and reference batches made so far (handed to the sender when there is one).
  uint64_t metric_requests() const { return exporter_.metric_requests(); }
  uint64_t reference_batches() const { return exporter_.reference_batches(); }

 private:
  struct Volume {
    const cache::CacheEngine* engine;
    exporter::VolumeExporter::Volume* telemetry;  // owned by exporter_: name, collector, batcher
    trace::IoRecord record;  // reused: the batcher's view of each I/O
    int64_t last_us = 0;
  };

  // One completed I/O as on_io() received it.
  struct LoggedIo {
    size_t volume;
    uint64_t offset;
    cache::IoOutcome outcome;
  };

  // One issued command as on_issue() received it.
  struct LoggedIssue {
    size_t volume;
    frontend::nbd::IssuedIo io;
  };

  // Records every logged I/O and issued command in order and empties the logs.
  [[gnu::noinline]] void record_log();
  // Records one I/O into its volume's collector and batcher.
  void record(const LoggedIo& io);

  exporter::VolumeExporter exporter_;
  std::vector<std::unique_ptr<Volume>> volumes_;
  CpuAccounting cpu_;
  std::array<LoggedIo, kLogCapacity> log_;
  size_t logged_ = 0;
  std::array<LoggedIssue, kLogCapacity> issues_;
  size_t issued_ = 0;
  int64_t interval_start_us_;
  // Unix time minus steady-clock time, microseconds: turns the engine's
  // completion time stamps into wall-clock time; renewed at every close.
  int64_t unix_minus_steady_us_;
};

}  // namespace tierwise::serve
