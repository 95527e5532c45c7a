#include "serve/serve_telemetry.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <type_traits>

#include "replay/engine_telemetry.hpp"

namespace tierwise::serve {
namespace {

constexpr int64_t kNanosPerMicro = 1000;
constexpr uint64_t kSectorBytes = 512;  // the vscsiStats seek distances' unit

std::vector<std::string> consumer_cgroups(const std::vector<LiveTelemetry::VolumeSource>& volumes) {
  std::vector<std::string> cgroups;
  for (const LiveTelemetry::VolumeSource& v : volumes) cgroups.push_back(v.consumer_cgroup);
  return cgroups;
}

int64_t steady_now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

LiveTelemetry::LiveTelemetry(const Options& options, const std::vector<VolumeSource>& volumes,
                             const sampling::KeyedHasher& hasher,
                             const sampling::ShardsSampler& sampler, exporter::HttpSender* sender,
                             int64_t start_unix_us)
    : exporter_({.host_name = options.host_name,
                 .cluster_name = options.cluster_name,
                 .send_names = options.send_names,
                 .agent_version = options.agent_version,
                 .stream = 0,
                 .max_sampled_blocks = sampling::ReferenceBatcher::kDefaultMaxSampledBlocks,
                 .lru_anchor = options.lru_anchor,
                 .working_set_dir = options.working_set_dir},
                hasher, sampler, sender),
      cpu_(consumer_cgroups(volumes)),
      interval_start_us_(start_unix_us),
      unix_minus_steady_us_(start_unix_us - steady_now_us()) {
  for (const VolumeSource& s : volumes) {
    auto v = std::make_unique<Volume>();
    v->engine = s.engine;
    v->telemetry = &exporter_.add_volume(s.name);
    v->record.volume = s.name;
    volumes_.push_back(std::move(v));
  }
}

void LiveTelemetry::on_io(size_t volume, uint64_t offset, const cache::IoOutcome& outcome) {
  static_assert(std::is_trivially_copyable_v<cache::IoOutcome>);
  LoggedIo& io = log_[logged_];
  io.volume = volume;
  io.offset = offset;
  std::memcpy(&io.outcome, &outcome, sizeof outcome);  // whole words, padding and all
  if (++logged_ == log_.size()) [[unlikely]] record_log();
}

void LiveTelemetry::on_issue(size_t volume, const frontend::nbd::IssuedIo& io) {
  LoggedIssue& logged = issues_[issued_];
  logged.volume = volume;
  logged.io = io;
  if (++issued_ == issues_.size()) [[unlikely]] record_log();
}

void LiveTelemetry::on_turn_end() {
  if (logged_ != 0 || issued_ != 0) record_log();
}

void LiveTelemetry::record_log() {
  for (size_t i = 0; i < issued_; ++i) {
    const frontend::nbd::IssuedIo& io = issues_[i].io;
    telemetry::VolumeCollector& c = volumes_[issues_[i].volume]->telemetry->collector;
    c.record_issue(io.direction, io.offset / kSectorBytes, (io.offset + io.length - 1) / kSectorBytes, io.issued_ns);
    c.record_outstanding(io.direction, io.in_flight, io.in_flight_direction);
  }
  issued_ = 0;
  for (size_t i = 0; i < logged_; ++i) record(log_[i]);
  logged_ = 0;
}

void LiveTelemetry::record(const LoggedIo& io) {
  const cache::IoOutcome& outcome = io.outcome;
  const uint64_t offset = io.offset;
  Volume& v = *volumes_[io.volume];
  // The reference's wall-clock time from the engine's completion time stamp
  // (no clock read here). The sampler needs time that never goes back, even
  // if the wall clock does.
  v.last_us = std::max(v.last_us, outcome.completion_ns / kNanosPerMicro + unix_minus_steady_us_);
  exporter::VolumeExporter::Volume& t = *v.telemetry;
  replay::record_outcome(t.collector, outcome.length_bytes, outcome, v.last_us);
  v.record.time_us = v.last_us;
  v.record.offset_bytes = offset;
  v.record.length_bytes = outcome.length_bytes;
  v.record.direction = outcome.direction;
  t.batcher->add(v.record, v.last_us);
}

std::vector<IntervalLine> LiveTelemetry::close_interval(int64_t now_unix_us) {
  record_log();
  std::vector<IntervalLine> lines;
  const int64_t start = interval_start_us_;
  const int64_t end = std::max(now_unix_us, start + 1);
  interval_start_us_ = end;
  unix_minus_steady_us_ = now_unix_us - steady_now_us();  // follows wall-clock steps
  const exporter::IntervalWindow window{static_cast<uint64_t>(start) * 1000,
                                        static_cast<uint64_t>(end) * 1000};
  cpu_.close();
  for (size_t i = 0; i < volumes_.size(); ++i) {
    Volume* v = volumes_[i].get();
    exporter::VolumeExporter::Volume& t = *v->telemetry;
    if (!t.collector.active()) continue;
    exporter_.close_volume(t, replay::totals_of(v->engine->counters()), cpu_.usage(i));
    const telemetry::IntervalMetrics& m = t.collector.metrics();
    IntervalLine line{t.name};
    const auto r = static_cast<size_t>(trace::Direction::kRead);
    const auto w = static_cast<size_t>(trace::Direction::kWrite);
    const auto f = static_cast<size_t>(telemetry::Source::kFrontend);
    line.reads = m.operations[r][f];
    line.writes = m.operations[w][f];
    line.read_hit_blocks = m.cache.hit_blocks[r];
    line.read_miss_blocks = m.cache.miss_blocks[r];
    lines.push_back(line);
  }
  // Old partial reference batches first: they go in end_interval()'s request of the host's batches.
  exporter_.flush_references_older_than(now_unix_us, kMaxReferenceAgeUs);
  exporter_.end_interval(window);  // resets the closed volumes' collectors
  return lines;
}

std::vector<IntervalLine> LiveTelemetry::finish(int64_t now_unix_us) {
  std::vector<IntervalLine> lines = close_interval(now_unix_us);
  exporter_.flush_references();
  return lines;
}

}  // namespace tierwise::serve
