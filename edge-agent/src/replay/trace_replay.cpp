#include "replay/trace_replay.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "replay/engine_telemetry.hpp"
#include "replay/progress.hpp"

namespace tierwise::replay {
namespace {

constexpr uint64_t kSector = cache::CacheEngine::kSectorBytes;
constexpr uint64_t kBlock = cache::CacheEngine::kBlockBytes;
constexpr int kMaxPrintedMalformed = 5;

int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

std::string errno_text(int negative_errno) { return std::strerror(-negative_errno); }

}  // namespace

TraceReplay::TraceReplay(const ReplayContext& context, size_t stream, std::string path)
    : ctx_(context),
      stream_(stream),
      path_(std::move(path)),
      exporter_({.host_name = ctx_.options->host_name,
                 .cluster_name = ctx_.options->cluster_name,
                 .send_names = ctx_.options->send_names,
                 .agent_version = ctx_.agent_version,
                 .stream = stream_,
                 .max_sampled_blocks = ctx_.options->max_sampled_blocks,
                 .lru_anchor = true,
                 .working_set_dir = ctx_.working_set_dir},
                *ctx_.hasher, *ctx_.sampler, ctx_.sender) {
  summary_.trace = path_;
  slots_.resize(std::max(1u, ctx_.options->queue_depth));
  for (IoSlot& s : slots_) {
    s.owner = this;
    free_slots_.push_back(&s);
  }
}

TraceReplay::~TraceReplay() = default;

TraceSummary TraceReplay::run() {
  const auto wall_start = std::chrono::steady_clock::now();
  try {
    const Scan s = scan();
    if (s.records > 0) replay(s);
  } catch (const trace::TraceOpenError& e) {
    summary_.error = e.what();
    summary_.unreadable = true;
  } catch (const trace::TraceReadError& e) {
    summary_.error = e.what();
    summary_.unreadable = true;
  } catch (const std::exception& e) {
    summary_.error = e.what();
  }
  summary_.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return summary_;
}

TraceReplay::Scan TraceReplay::scan() {
  trace::TraceOptions options;
  options.format = ctx_.options->format;
  auto reader = trace::open_trace(path_, options);
  summary_.format = std::string(trace::trace_format_name(reader->format()));
  Scan s;
  trace::IoRecord record;
  while (reader->next(record)) {
    s.min_time_us = s.records == 0 ? record.time_us : std::min(s.min_time_us, record.time_us);
    s.max_time_us = s.records == 0 ? record.time_us : std::max(s.max_time_us, record.time_us);
    s.max_length_bytes = std::max<uint64_t>(s.max_length_bytes, record.length_bytes);
    ++s.records;
  }
  summary_.malformed = reader->malformed_records();
  summary_.trace_seconds = static_cast<double>(s.max_time_us - s.min_time_us) / 1e6;
  return s;
}

void TraceReplay::replay(const Scan& s) {
  const int64_t interval_us = ctx_.options->interval_us;
  // The last record lands 1 us before the last interval boundary at or before
  // the replay's start, so every interval ends in the past.
  shift_us_ = floor_div(ctx_.replay_start_us, interval_us) * interval_us - 1 - s.max_time_us;
  // Blocks one I/O can touch once rounded out to sectors (its ends may fall
  // inside two more blocks), times the I/Os in flight.
  const uint64_t blocks_per_io = std::min<uint64_t>(s.max_length_bytes, UINT32_MAX) / kBlock + 2;
  staging_slots_ = static_cast<uint32_t>(
      std::min<uint64_t>(blocks_per_io * slots_.size(), UINT32_MAX / 2));

  int printed = 0;
  trace::TraceOptions options;
  options.format = ctx_.options->format;
  options.on_error = [&](const trace::TraceError& e) {
    if (printed++ < kMaxPrintedMalformed) {
      std::fprintf(stderr, "tierwise-agent: skipped malformed record: %s\n", e.to_string().c_str());
    }
  };
  Progress progress(path_, s.records);
  try {
    auto reader = trace::open_trace(path_, options);
    trace::IoRecord record;
    while (io_error_.empty() && reader->next(record)) {
      const int64_t time_us = record.time_us + shift_us_;
      const int64_t index = floor_div(time_us, interval_us);
      if (interval_ < 0) interval_ = index;
      if (index > interval_) {
        close_interval(interval_);
        interval_ = index;
      }
      submit(record, time_us);
      progress.update(summary_.records);
    }
    summary_.malformed = reader->malformed_records();
    if (printed > kMaxPrintedMalformed) {
      std::fprintf(stderr, "tierwise-agent: %s: %d more malformed records skipped\n",
                   path_.c_str(), printed - kMaxPrintedMalformed);
    }
  } catch (const trace::TraceReadError& e) {
    summary_.error = e.what();
    summary_.unreadable = true;
  } catch (const std::exception& e) {
    summary_.error = e.what();
  }
  finish();
  if (summary_.error.empty() && !io_error_.empty()) summary_.error = io_error_;
}

TraceReplay::Volume& TraceReplay::volume_for(const std::string& name) {
  if (last_volume_ != nullptr && last_volume_->name == name) return *last_volume_;
  auto it = volumes_.find(name);
  if (it == volumes_.end()) {
    auto v = std::make_unique<Volume>();
    v->name = name;
    const std::string file =
        (std::filesystem::path(ctx_.datastore_dir) / (ctx_.hasher->volume_id(name) + ".img")).string();
    if (const int rc = blockdev::UringFileDevice::open(*ctx_.queue, file, &v->datastore); rc != 0) {
      throw std::runtime_error("cannot open datastore file " + file + " for volume " + name +
                               ": " + errno_text(rc));
    }
    const uint64_t tier_bytes = ctx_.options->tier_bytes / kBlock * kBlock;
    const cache::EvictionOptions eviction{ctx_.options->eviction,
                                          ctx_.options->sequential_cutoff_bytes, staging_slots_};
    // RAM is only taken as slots are used: the staging room costs nothing until
    // an eviction has to wait for an in-flight I/O.
    if (const int rc = blockdev::RamDevice::create(tier_bytes + uint64_t{staging_slots_} * kBlock,
                                                   &v->tier);
        rc != 0) {
      throw std::runtime_error("RAM tier of " + std::to_string(tier_bytes) +
                               " bytes: " + errno_text(rc));
    }
    if (const int rc = cache::CacheEngine::create(*v->datastore, *v->tier, tier_bytes, eviction,
                                                  &v->engine);
        rc != 0) {
      throw std::runtime_error("cache engine for volume " + name + ": " + errno_text(rc));
    }
    v->telemetry = &exporter_.add_volume(name);
    it = volumes_.emplace(name, std::move(v)).first;
  }
  last_volume_ = it->second.get();
  return *last_volume_;
}

void TraceReplay::submit(const trace::IoRecord& record, int64_t time_us) {
  Volume& v = volume_for(record.volume);
  if (!v.in_interval) {
    v.in_interval = true;
    active_.push_back(&v);
  }
  ++summary_.records;
  if (record.direction == trace::Direction::kRead) {
    ++summary_.reads;
    summary_.read_bytes += record.length_bytes;
  } else {
    ++summary_.writes;
    summary_.write_bytes += record.length_bytes;
  }

  v.last_io_us = std::max(time_us, v.last_io_us);
  summary_.references += v.telemetry->batcher->add(record, v.last_io_us);

  // Block devices address sectors: round the I/O out to 512-byte boundaries.
  const uint64_t offset = record.offset_bytes / kSector * kSector;
  const uint64_t end = (record.offset_bytes + record.length_bytes + kSector - 1) / kSector * kSector;
  const auto length = static_cast<uint32_t>(std::min<uint64_t>(end - offset, UINT32_MAX / kSector * kSector));
  // Issued now, in trace order, at the volume's clock (trace time in
  // nanoseconds): the sectors the engine is asked for, rounded out.
  telemetry::VolumeCollector& collector = v.telemetry->collector;
  collector.record_issue(record.direction, offset / kSector, end / kSector - 1, v.last_io_us * 1000);
  if (record.response_time_us >= 0) {
    const TraceOutstanding::InFlight n = v.outstanding.issue(record.direction, v.last_io_us, record.response_time_us);
    collector.record_outstanding(record.direction, n.all, n.direction);
  }

  IoSlot* slot = wait_for_slot(&v, offset / kBlock, (offset + length - 1) / kBlock);
  if (slot->capacity < length) {
    slot->buf = blockdev::allocate_aligned(length, blockdev::UringFileDevice::kBufferAlignment);
    if (!slot->buf) throw std::runtime_error("out of memory for an I/O buffer of " + std::to_string(length) + " bytes");
    std::memset(slot->buf.get(), 0xA5, length);  // what replayed writes store
    slot->capacity = length;
  }
  slot->volume = &v;
  slot->first_block = offset / kBlock;
  slot->last_block = (offset + length - 1) / kBlock;
  slot->record_length = record.length_bytes;
  slot->record_time_us = record.time_us;
  slot->busy = true;
  const int rc = v.engine->submit(record.direction, offset, length, slot->buf.get(), on_io_done, slot);
  if (rc != 0) {
    slot->busy = false;
    free_slots_.push_back(slot);
    throw std::runtime_error("cache engine refused I/O at offset " + std::to_string(offset) +
                             " on volume " + v.name + ": " + errno_text(rc));
  }
}

TraceReplay::IoSlot* TraceReplay::wait_for_slot(const Volume* volume, uint64_t first_block,
                                                uint64_t last_block) {
  for (;;) {
    bool conflict = false;
    for (const IoSlot& s : slots_) {
      if (s.busy && s.volume == volume && s.first_block <= last_block && first_block <= s.last_block) {
        conflict = true;
        break;
      }
    }
    if (!conflict && !free_slots_.empty()) {
      IoSlot* slot = free_slots_.back();
      free_slots_.pop_back();
      return slot;
    }
    if (ctx_.queue->in_flight() == 0) throw std::logic_error("replay: I/O slots busy with nothing in flight");
    if (const int rc = ctx_.queue->poll(true); rc < 0) {
      throw std::runtime_error("io_uring: " + errno_text(rc));
    }
  }
}

void TraceReplay::drain_io() {
  while (free_slots_.size() < slots_.size()) {
    if (ctx_.queue->in_flight() == 0) throw std::logic_error("replay: I/O slots busy with nothing in flight");
    if (const int rc = ctx_.queue->poll(true); rc < 0) {
      throw std::runtime_error("io_uring: " + errno_text(rc));
    }
  }
}

void TraceReplay::on_io_done(void* arg, const cache::IoOutcome& outcome) {
  auto* slot = static_cast<IoSlot*>(arg);
  slot->owner->complete(slot, outcome);
}

void TraceReplay::complete(IoSlot* slot, const cache::IoOutcome& outcome) {
  record_outcome(slot->volume->telemetry->collector, slot->record_length, outcome, slot->record_time_us);
  if (outcome.status != 0) {
    ++summary_.io_errors;
    if (io_error_.empty()) {
      io_error_ = "datastore I/O failed on volume " + slot->volume->name + ": " + errno_text(outcome.status);
    }
  }
  slot->busy = false;
  free_slots_.push_back(slot);
}

void TraceReplay::close_interval(int64_t index) {
  drain_io();
  ++summary_.intervals;
  const int64_t interval_us = ctx_.options->interval_us;
  const exporter::IntervalWindow window{static_cast<uint64_t>(index * interval_us) * 1000,
                                        static_cast<uint64_t>((index + 1) * interval_us) * 1000};
  for (Volume* v : active_) exporter_.close_volume(*v->telemetry, totals_of(v->engine->counters()));
  exporter_.end_interval(window);
  for (Volume* v : active_) v->in_interval = false;
  active_.clear();
}

void TraceReplay::finish() {
  try {
    if (interval_ >= 0 && !active_.empty()) close_interval(interval_);
    exporter_.flush_references();
  } catch (const std::exception& e) {
    if (summary_.error.empty()) summary_.error = e.what();
  }
  summary_.volumes = volumes_.size();
  for (auto& [name, v] : volumes_) {
    const cache::CacheCounters& c = v->engine->counters();
    const auto r = static_cast<size_t>(trace::Direction::kRead);
    summary_.hits += c.hit_blocks[0] + c.hit_blocks[1];
    summary_.misses += c.miss_blocks[0] + c.miss_blocks[1];
    summary_.read_hits += c.hit_blocks[r];
    summary_.read_misses += c.miss_blocks[r];
    summary_.population_bytes += c.population_bytes;
    summary_.eviction_bytes += c.eviction_bytes;
    summary_.bypass_bytes += c.bypass_bytes;
    summary_.fill_bytes += c.fill_bytes;
  }
}

}  // namespace tierwise::replay
