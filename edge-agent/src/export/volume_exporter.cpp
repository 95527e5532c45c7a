#include "export/volume_exporter.hpp"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include "export/batches.hpp"

namespace tierwise::exporter {

VolumeExporter::VolumeExporter(Options options, const sampling::KeyedHasher& hasher,
                               const sampling::ShardsSampler& sampler, HttpSender* sender)
    : options_(std::move(options)),
      hasher_(hasher),
      sampler_(sampler),
      sender_(sender),
      host_id_(hasher.host_id(options_.host_name)),
      cluster_id_(options_.cluster_name.empty() ? std::string() : hasher.cluster_id(options_.cluster_name)),
      host_tier_(sampler.modulus(), sampler.threshold(), cache::MiniatureSimulations::default_cache_bytes(),
                 cache::MiniatureSimulations::kDefaultMaxBlocks, /*parts=*/0),
      host_windows_(sampler.modulus(), sampler.threshold(), sampling::ReferenceBatcher::kServiceMaxSamples,
                    /*parts=*/0) {
  restore_host_working_set();
}

std::string VolumeExporter::working_set_dir_beside(const std::string& spool_dir) {
  const std::filesystem::path parent = std::filesystem::path(spool_dir).parent_path();
  return (parent.empty() ? std::filesystem::path("working-sets") : parent / "working-sets").string();
}

VolumeExporter::Volume& VolumeExporter::add_volume(const std::string& name) {
  auto v = std::make_unique<Volume>();
  v->name = name;
  v->resource.host_id = host_id_;
  v->resource.volume_id = hasher_.volume_id(name);
  v->age_phase = static_cast<double>(std::stoull(v->resource.volume_id.substr(0, 8), nullptr, 16)) / 4294967296.0;
  v->resource.cluster_id = cluster_id_;
  if (options_.send_names) {
    v->resource.host_name = options_.host_name;
    v->resource.volume_name = name;
  }
  v->batcher = std::make_unique<sampling::ReferenceBatcher>(
      v->resource.host_id, v->resource.volume_id, sampler_,
      [this](const tierwise::v1::ReferenceBatch& batch) { add_reference_batch(batch); },
      sampling::DistinctBlockSketch::kDefaultPrecision, options_.max_sampled_blocks, options_.lru_anchor);
  v->batcher->set_cluster_id(cluster_id_);
  // Only a cluster's tier, shared with other hosts, needs the references themselves.
  v->batcher->set_summarise_references(cluster_id_.empty());
  v->batcher->set_host_tier(&host_tier_, &host_windows_, std::hash<std::string>{}(v->resource.volume_id));
  restore_working_set(*v);
  volumes_.push_back(std::move(v));
  return *volumes_.back();
}

void VolumeExporter::close_volume(Volume& volume, const telemetry::CacheTotals& totals,
                                  const telemetry::CpuUsage& cpu) {
  volume.collector.close_interval(totals, cpu);
  closed_.push_back(&volume);
}

void VolumeExporter::send(const std::vector<VolumeInterval>& batch, const IntervalWindow& window) {
  if (batch.empty()) return;
  ++metric_requests_;
  if (sender_ == nullptr) return;  // nothing leaves: no need to encode
  encode_metrics(batch, window, options_.agent_version, &request_);
  sender_->enqueue(metrics_batch(request_, options_.stream));
}

void VolumeExporter::end_interval(const IntervalWindow& window) {
  std::vector<VolumeInterval> batch;
  for (Volume* v : closed_) {
    batch.push_back({&v->resource, &v->collector.metrics()});
    if (batch.size() == kMaxVolumesPerRequest) {
      send(batch, window);
      batch.clear();
    }
  }
  send(batch, window);
  for (Volume* v : closed_) v->collector.reset();
  closed_.clear();
  send_references();
}

void VolumeExporter::add_reference_batch(const tierwise::v1::ReferenceBatch& batch) {
  ++reference_batches_;
  if (sender_ == nullptr) return;  // nothing leaves: no need to keep it
  // The batch's bytes and its framing in the request: a 1-byte tag and a length of at most 5.
  const size_t bytes = batch.ByteSizeLong() + 6;
  if (waiting_references_.batches_size() == kMaxBatchesPerReferenceRequest ||
      waiting_reference_bytes_ + bytes > kMaxReferenceRequestBytes) {
    send_references();
  }
  *waiting_references_.add_batches() = batch;
  waiting_reference_bytes_ += bytes;
}

void VolumeExporter::send_references() {
  if (waiting_references_.batches_size() == 0) return;
  sender_->enqueue(reference_batches_batch(waiting_references_, options_.stream));
  waiting_references_.Clear();
  waiting_reference_bytes_ = 0;
}

void VolumeExporter::flush_references() {
  for (auto& v : volumes_) v->batcher->flush();
  send_references();
  if (options_.working_set_dir.empty()) return;
  for (const auto& v : volumes_) {
    save_working_set(working_set_path(v->resource.volume_id), v->batcher->save_working_set());
  }
  save_working_set(working_set_path(kHostTierFile), host_windows_.save());
}

std::string VolumeExporter::working_set_path(const std::string& name) const {
  return (std::filesystem::path(options_.working_set_dir) / (name + ".ws")).string();
}

namespace {

// The bytes of the file at `path`, which is then removed; std::nullopt when there is none.
std::optional<std::string> take_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream saved;
  saved << in.rdbuf();
  in.close();
  std::error_code ec;
  std::filesystem::remove(path, ec);
  return saved.str();
}

}  // namespace

void VolumeExporter::restore_working_set(Volume& volume) const {
  if (options_.working_set_dir.empty()) return;
  const std::string path = working_set_path(volume.resource.volume_id);
  const std::optional<std::string> saved = take_file(path);
  if (saved && !volume.batcher->restore_working_set(*saved)) {
    std::fprintf(stderr, "tierwise-agent: volume %s: %s is not a working-set sample of this key and rate;"
                 " the volume's working-set windows start again\n", volume.name.c_str(), path.c_str());
  }
}

void VolumeExporter::restore_host_working_set() {
  if (options_.working_set_dir.empty()) return;
  const std::string path = working_set_path(kHostTierFile);
  const std::optional<std::string> saved = take_file(path);
  if (!saved) return;
  std::optional<sampling::WorkingSetWindows> restored = sampling::WorkingSetWindows::restore(
      *saved, sampler_.modulus(), sampler_.threshold(), sampling::ReferenceBatcher::kServiceMaxSamples, /*parts=*/0);
  if (restored) {
    host_windows_ = std::move(*restored);
  } else {
    std::fprintf(stderr, "tierwise-agent: %s is not a working-set sample of this key and rate;"
                 " the host's tier's working-set windows start again\n", path.c_str());
  }
}

void VolumeExporter::save_working_set(const std::string& path, const std::string& bytes) const {
  const std::string temporary = path + ".tmp";
  std::error_code ec;
  std::filesystem::create_directories(options_.working_set_dir, ec);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (out && !ec) {
      std::filesystem::rename(temporary, path, ec);
      if (!ec) return;
    }
  }
  std::filesystem::remove(temporary, ec);
  std::fprintf(stderr, "tierwise-agent: cannot save the working-set sample %s; the service's working-set"
               " windows it is of start again after the restart\n", path.c_str());
}

void VolumeExporter::flush_references_older_than(int64_t now_us, int64_t max_age_us) {
  for (auto& v : volumes_) {
    const std::optional<int64_t> since = v->batcher->open_since_us();
    if (!since) continue;
    const int64_t age_us =
        v->aged_once ? max_age_us : max_age_us - static_cast<int64_t>(v->age_phase * static_cast<double>(max_age_us));
    if (now_us - *since >= age_us) {
      v->batcher->flush();
      v->aged_once = true;
    }
  }
}

}  // namespace tierwise::exporter
