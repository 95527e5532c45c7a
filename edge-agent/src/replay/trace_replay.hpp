// Replays one trace file through per-volume cache engines, collecting telemetry,
// sampling references and handing export batches to the sender.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "blockdev/aligned_buffer.hpp"
#include "blockdev/ram_device.hpp"
#include "blockdev/uring_file_device.hpp"
#include "blockdev/uring_queue.hpp"
#include "cache/cache_engine.hpp"
#include "export/http_sender.hpp"
#include "export/volume_exporter.hpp"
#include "replay/replay_options.hpp"
#include "replay/trace_outstanding.hpp"
#include "replay/trace_summary.hpp"
#include "sampling/keyed_hash.hpp"
#include "sampling/shards_sampler.hpp"
#include "trace/trace_reader.hpp"

namespace tierwise::replay {

// What every trace of one `replay` command shares.
struct ReplayContext {
  const ReplayOptions* options;
  blockdev::UringQueue* queue;
  exporter::HttpSender* sender;  // null: nothing is exported (dry run)
  const sampling::KeyedHasher* hasher;
  const sampling::ShardsSampler* sampler;
  std::string datastore_dir;  // where each volume's sparse datastore file goes
  int64_t replay_start_us;    // Unix epoch, microseconds
  std::string agent_version;
  // Where the working-set samples are kept across traces and runs, as `serve`
  // keeps them (VolumeExporter::Options::working_set_dir); empty: not kept.
  std::string working_set_dir = {};
};

/*
 * Lifecycle of a TraceReplay
 *
 * 1. Construct with the shared context and the trace's stream number (its
 *    index on the command line: the sender keeps statistics per stream).
 * 2. run() reads the trace twice:
 *    - a scan for the record count (progress) and the last timestamp;
 *    - the replay: trace time is shifted so the last record falls just before
 *      the last interval boundary (a multiple of the interval) at or before the
 *      replay's start: every exported timestamp is recent and in the past.
 *      Each record is first issued to its volume's collector (the vscsiStats
 *      families of proto/METRICS.md, in trace order: seek distances from its
 *      sectors, interarrival from its timestamp on the volume's clock, which
 *      never goes back (Volume::last_io_us), and, where the trace gives the
 *      record's response time, the outstanding I/Os: TraceOutstanding).
 *      Then it goes through its volume's cache engine (volumes, with their
 *      sparse datastore file, RAM tier, collector and reference batcher (an
 *      exporter::VolumeExporter's volume), are created on first use;
 *      each RAM tier has staging room for every block queue_depth of the
 *      trace's longest I/Os can touch, so eviction follows the policy exactly),
 *      up to queue_depth I/Os in flight; I/Os that share a 4 KiB block with one
 *      in flight wait for it. Records are rounded out to 512-byte sectors.
 *      When trace time crosses an interval boundary, in-flight I/Os are drained
 *      and every volume active in the interval is closed and handed to the
 *      VolumeExporter (at most kMaxVolumesPerRequest per request). A record
 *      earlier than the current interval (traces that are not sorted) counts in
 *      the current interval;
 *      its sampled references are stamped no earlier than the volume's last.
 *    At the end (or when stopped by an error) the last interval is exported and
 *    partial reference batches flushed.
 * 3. Destroy after run(): closes the datastore files (the directory's owner
 *    removes them).
 */
class TraceReplay {
 public:
  TraceReplay(const ReplayContext& context, size_t stream, std::string path);
  ~TraceReplay();
  TraceReplay(const TraceReplay&) = delete;
  TraceReplay& operator=(const TraceReplay&) = delete;

  // Replays the trace. Errors that stop it (unreadable trace, datastore failure)
  // are returned in TraceSummary::error, with everything replayed until then
  // still counted and exported. Export counters are filled in by the caller.
  TraceSummary run();

 private:
  struct Volume {
    std::string name;
    std::unique_ptr<blockdev::UringFileDevice> datastore;
    std::unique_ptr<blockdev::RamDevice> tier;
    std::unique_ptr<cache::CacheEngine> engine;
    exporter::VolumeExporter::Volume* telemetry = nullptr;  // owned by exporter_
    TraceOutstanding outstanding;  // records with a response time in flight
    int64_t last_io_us = 0;  // the volume's clock: its latest record time so far
    bool in_interval = false;
  };
  struct IoSlot {
    TraceReplay* owner = nullptr;
    Volume* volume = nullptr;
    uint64_t first_block = 0, last_block = 0;
    uint32_t record_length = 0;  // the trace's length, before rounding to sectors
    int64_t record_time_us = 0;  // the trace's time of the I/O (the interval clock of the replay)
    bool busy = false;
    blockdev::AlignedBytes buf;
    size_t capacity = 0;
  };
  struct Scan {
    uint64_t records = 0;
    int64_t min_time_us = 0, max_time_us = 0;
    uint64_t max_length_bytes = 0;  // the longest I/O: sizes the tiers' staging room
  };

  Scan scan();
  void replay(const Scan& scan);
  void submit(const trace::IoRecord& record, int64_t time_us);
  Volume& volume_for(const std::string& name);
  IoSlot* wait_for_slot(const Volume* volume, uint64_t first_block, uint64_t last_block);
  void drain_io();
  void close_interval(int64_t index);
  void finish();
  static void on_io_done(void* arg, const cache::IoOutcome& outcome);
  void complete(IoSlot* slot, const cache::IoOutcome& outcome);

  const ReplayContext& ctx_;
  size_t stream_;
  std::string path_;
  TraceSummary summary_;
  exporter::VolumeExporter exporter_;  // the volumes' telemetry (stream_)
  std::unordered_map<std::string, std::unique_ptr<Volume>> volumes_;
  Volume* last_volume_ = nullptr;  // records of one volume tend to come in runs
  std::vector<Volume*> active_;    // volumes with I/O in the current interval
  std::vector<IoSlot> slots_;
  std::vector<IoSlot*> free_slots_;
  int64_t shift_us_ = 0;      // added to trace time: Unix epoch microseconds
  int64_t interval_ = -1;     // index of the current interval (time / interval_us)
  std::string io_error_;      // first front-end I/O error; stops the replay
  uint32_t staging_slots_ = 0;  // per tier: every block queue_depth I/Os can touch
};

}  // namespace tierwise::replay
