#include "serve/serve_telemetry.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <type_traits>

#include "export/batches.hpp"
#include "replay/engine_telemetry.hpp"

namespace tierwise::serve {
namespace {

constexpr int64_t kNanosPerMicro = 1000;

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
    : sender_(sender),
      agent_version_(options.agent_version),
      interval_start_us_(start_unix_us),
      unix_minus_steady_us_(start_unix_us - steady_now_us()) {
  const std::string host_id = hasher.host_id(options.host_name);
  const std::string cluster_id =
      options.cluster_name.empty() ? std::string() : hasher.cluster_id(options.cluster_name);
  for (const VolumeSource& s : volumes) {
    auto v = std::make_unique<Volume>();
    v->name = s.name;
    v->engine = s.engine;
    v->resource.host_id = host_id;
    v->resource.volume_id = hasher.volume_id(s.name);
    v->resource.cluster_id = cluster_id;
    if (options.send_names) {
      v->resource.host_name = options.host_name;
      v->resource.volume_name = s.name;
    }
    v->record.volume = s.name;
    v->batcher = std::make_unique<sampling::ReferenceBatcher>(
        v->resource.host_id, v->resource.volume_id, sampler,
        [this](const tierwise::v1::ReferenceBatch& batch) {
          ++reference_batches_;
          if (sender_ != nullptr) sender_->enqueue(exporter::refs_batch(batch, 0));
        },
        sampling::DistinctBlockSketch::kDefaultPrecision, sampling::ReferenceBatcher::kDefaultMaxSampledBlocks,
        options.lru_anchor);
    v->batcher->set_cluster_id(cluster_id);
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

void LiveTelemetry::on_turn_end() {
  if (logged_ != 0) record_log();
}

void LiveTelemetry::record_log() {
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
  replay::record_outcome(v.collector, outcome.length_bytes, outcome, v.last_us);
  v.record.time_us = v.last_us;
  v.record.offset_bytes = offset;
  v.record.length_bytes = outcome.length_bytes;
  v.record.direction = outcome.direction;
  v.batcher->add(v.record, v.last_us);
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
  std::vector<exporter::VolumeInterval> batch;
  auto send = [&] {
    if (batch.empty()) return;
    exporter::encode_metrics(batch, window, agent_version_, &request_);
    ++metric_requests_;
    if (sender_ != nullptr) sender_->enqueue(exporter::metrics_batch(request_, 0));
    batch.clear();
  };
  for (auto& v : volumes_) {
    if (!v->collector.active()) continue;
    v->collector.close_interval(replay::totals_of(v->engine->counters()));
    const telemetry::IntervalMetrics& m = v->collector.metrics();
    IntervalLine line{v->name};
    const auto r = static_cast<size_t>(trace::Direction::kRead);
    const auto w = static_cast<size_t>(trace::Direction::kWrite);
    const auto f = static_cast<size_t>(telemetry::Source::kFrontend);
    line.reads = m.operations[r][f];
    line.writes = m.operations[w][f];
    line.read_hit_blocks = m.cache.hit_blocks[r];
    line.read_miss_blocks = m.cache.miss_blocks[r];
    lines.push_back(line);
    batch.push_back({&v->resource, &v->collector.metrics()});
    if (batch.size() == exporter::kMaxVolumesPerRequest) send();
  }
  send();
  for (auto& v : volumes_) v->collector.reset();
  return lines;
}

std::vector<IntervalLine> LiveTelemetry::finish(int64_t now_unix_us) {
  std::vector<IntervalLine> lines = close_interval(now_unix_us);
  for (auto& v : volumes_) v->batcher->flush();
  return lines;
}

}  // namespace tierwise::serve
