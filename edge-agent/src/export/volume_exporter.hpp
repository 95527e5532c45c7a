// One host's per-volume telemetry on its way to ingest, shared by `replay`
// (trace time) and the live data plane (`serve`, `run`): each volume's
// resource attributes, interval collector and SHARDS reference batcher; at an
// interval's end the collectors' metrics encoded as OTLP requests, and full
// ReferenceBatches, handed to the sender. The volumes' batchers also simulate
// the host's shared tier, one miniature simulation all of them feed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cache/miniature_simulations.hpp"
#include "export/http_sender.hpp"
#include "export/otlp_metrics.hpp"
#include "sampling/keyed_hash.hpp"
#include "sampling/reference_batcher.hpp"
#include "sampling/shards_sampler.hpp"
#include "telemetry/interval_metrics.hpp"
#include "telemetry/volume_collector.hpp"
#include "tierwise/v1/reference_batch.pb.h"

namespace tierwise::exporter {

/*
 * Lifecycle of a VolumeExporter
 *
 * 1. Construct with the host's options, the keyed hasher and the sampler (not
 *    owned; they outlive the exporter) and the sender (null: collect and count,
 *    nothing leaves the host). The host id (and cluster id) are the keyed
 *    hashes of Options::host_name (and cluster_name).
 * 2. add_volume(name): the volume's resource (host, volume and cluster ids;
 *    host and volume names with send_names), a collector and a reference
 *    batcher (summarising its references unless the host is in a cluster:
 *    ReferenceBatcher::set_summarise_references) whose batches (full, or
 *    flushed) wait in the exporter for the
 *    next request of the host's reference batches (POST /v1/refs/batches, one
 *    tierwise.v1.ReferenceBatches of at most kMaxBatchesPerReferenceRequest
 *    batches and kMaxReferenceRequestBytes, on Options::stream): one request
 *    per host and interval, not one per volume. The Volume stays at its
 *    address until the exporter is destroyed.
 * 3. Per I/O the owner records into the volume's collector and batcher itself
 *    (its thread, no call through the exporter).
 * 4. At an interval's end, with every I/O of the interval recorded:
 *    close_volume() for each volume that saw I/O, with its engine's
 *    cumulative totals; its metrics() can be read until end_interval(window),
 *    which encodes the closed volumes, in the order they were closed, into
 *    OTLP requests of at most kMaxVolumesPerRequest volumes for `window`
 *    (POST /v1/metrics, Options::stream), then resets their collectors, and
 *    sends the waiting reference batches. Call flush_references_older_than()
 *    before it, so that a quiet volume's partial batch goes in the same
 *    request.
 * 5. flush_references() sends every volume's partial reference batch with
 *    those waiting (at the end of a replay or of serving), then, with
 *    Options::working_set_dir, saves each volume's working-set windows and the
 *    host's tier's there, which the next run restores (the constructor the
 *    tier's, add_volume() a volume's; and removes, so that a run
 *    that ends without step 5, a crash, leaves none: its sample is gone and
 *    the next starts afresh; docs/analytics.md "Windows on the agent").
 *
 * One thread: the batchers' owner calls every step (their full batches come
 * back through the exporter).
 */
class VolumeExporter {
 public:
  struct Options {
    std::string host_name;      // the host's name (its keyed hash is host.id)
    std::string cluster_name;   // the host's cluster; empty: none
    bool send_names = false;    // also host.name and tierwise.volume.name
    std::string agent_version;  // service.version and the scope version
    size_t stream = 0;          // the sender's statistics label (the replay: trace index)
    size_t max_sampled_blocks = sampling::ReferenceBatcher::kDefaultMaxSampledBlocks;  // 0: fixed rate
    bool lru_anchor = true;     // the batchers' exact 4 MiB LRU count (sampling/lru_anchor.hpp)
    // Where each volume's working-set windows are kept across restarts
    // (<dir>/<volume id>.ws; lifecycle steps 2 and 5); empty: not kept.
    std::string working_set_dir = {};
  };

  // One volume's telemetry.
  struct Volume {
    std::string name;
    VolumeResource resource;
    telemetry::VolumeCollector collector;
    std::unique_ptr<sampling::ReferenceBatcher> batcher;
    // The volume's phase in [0, 1), from its volume id (a keyed hash, so uniform): its first
    // partial batch sent for its age leaves at (1 - age_phase) of the age
    // (flush_references_older_than), so hosts started together do not send every volume's
    // partial batch in the same interval, minute after minute.
    double age_phase = 0;
    bool aged_once = false;  // a partial batch was sent for its age
  };

  VolumeExporter(Options options, const sampling::KeyedHasher& hasher, const sampling::ShardsSampler& sampler,
                 HttpSender* sender);
  VolumeExporter(const VolumeExporter&) = delete;
  VolumeExporter& operator=(const VolumeExporter&) = delete;

  // Where an agent keeps its working-set samples across restarts
  // (Options::working_set_dir): "working-sets" beside its spool directory
  // `spool_dir` (the agent's state directory: /var/lib/tierwise as installed).
  static std::string working_set_dir_beside(const std::string& spool_dir);

  // Lifecycle step 2.
  Volume& add_volume(const std::string& name);
  // Lifecycle step 4: ends `volume`'s interval with `totals`, the engine's
  // cumulative cache counters, and `cpu`, the interval's CPU usage (`serve`;
  // default: not measured), and adds it to the interval's requests.
  void close_volume(Volume& volume, const telemetry::CacheTotals& totals,
                    const telemetry::CpuUsage& cpu = telemetry::CpuUsage{});
  // Lifecycle step 4: the closed volumes' metrics for `window`, then the
  // waiting reference batches, to the sender.
  void end_interval(const IntervalWindow& window);
  // Lifecycle step 5.
  void flush_references();
  // Ends each volume's partial reference batch whose first I/O is at least
  // `max_age_us` before `now_us` (microseconds, the batchers' clock), so that
  // a quiet volume's references do not wait for a full batch; they go with
  // the next end_interval(). A volume's first such batch leaves younger, at
  // (1 - Volume::age_phase) * max_age_us.
  void flush_references_older_than(int64_t now_us, int64_t max_age_us);

  // Most reference batches in one POST /v1/refs/batches (ingest's MAX_REFERENCE_BATCHES).
  static constexpr int kMaxBatchesPerReferenceRequest = 1000;
  // Most bytes of reference batches in one request: half of ingest's 8 MiB
  // body bound (MAX_BODY_BYTES), so a full batch (10,000 references) always
  // fits beside the others.
  static constexpr size_t kMaxReferenceRequestBytes = 4u << 20;

  // Metric requests and reference batches made so far (handed to the sender
  // when there is one).
  uint64_t metric_requests() const { return metric_requests_; }
  uint64_t reference_batches() const { return reference_batches_; }

 private:
  void send(const std::vector<VolumeInterval>& batch, const IntervalWindow& window);
  // A batcher's batch, to wait for the next request (sent first when it would not fit).
  void add_reference_batch(const tierwise::v1::ReferenceBatch& batch);
  // The waiting reference batches, as one request, to the sender.
  void send_references();
  // The host's tier's working-set file's name (volume ids are hex: no clash).
  static constexpr const char* kHostTierFile = "host-tier";
  // <working_set_dir>/<volume id>.ws; the host's tier's: <working_set_dir>/host-tier.ws.
  std::string working_set_path(const std::string& name) const;
  // Restores `volume`'s working-set windows from its file, if any, and removes it.
  void restore_working_set(Volume& volume) const;
  // Restores the host's tier's windows from its file, if any, and removes it
  // (before any volume: they are parts of it).
  void restore_host_working_set();
  // Writes a saved working-set state to `path` (written whole, then renamed).
  void save_working_set(const std::string& path, const std::string& bytes) const;

  const Options options_;
  const sampling::KeyedHasher& hasher_;
  const sampling::ShardsSampler& sampler_;
  HttpSender* const sender_;
  const std::string host_id_;
  const std::string cluster_id_;
  // The host's shared tier, its miniature simulations and working-set
  // windows, every volume a part of each (declared before the volumes: their
  // batchers point at them).
  cache::MiniatureSimulations host_tier_;
  sampling::WorkingSetWindows host_windows_;
  std::vector<std::unique_ptr<Volume>> volumes_;
  std::vector<Volume*> closed_;  // closed in the current interval, in order
  ExportMetricsServiceRequest request_;  // reused per request
  tierwise::v1::ReferenceBatches waiting_references_;  // batches for the next POST /v1/refs/batches
  size_t waiting_reference_bytes_ = 0;
  uint64_t metric_requests_ = 0;
  uint64_t reference_batches_ = 0;
};

}  // namespace tierwise::exporter
