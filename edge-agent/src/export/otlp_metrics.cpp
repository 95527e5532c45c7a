#include "export/otlp_metrics.hpp"

#include <stdexcept>
#include <string>

namespace tierwise::exporter {
namespace {

namespace otlp = opentelemetry::proto;
using otlp::common::v1::KeyValue;
using otlp::metrics::v1::ExponentialHistogramDataPoint;
using otlp::metrics::v1::HistogramDataPoint;
using otlp::metrics::v1::Metric;
using otlp::metrics::v1::NumberDataPoint;
using otlp::metrics::v1::ScopeMetrics;
using telemetry::Direction;
using telemetry::IntervalMetrics;
using telemetry::kDirectionCount;
using telemetry::kSizeBinCount;
using telemetry::kSourceCount;
using telemetry::Source;

using Attributes = google::protobuf::RepeatedPtrField<KeyValue>;

constexpr auto kDelta = otlp::metrics::v1::AGGREGATION_TEMPORALITY_DELTA;
constexpr double kNanosPerSecond = 1e9;

void add_attribute(Attributes* attributes, std::string_view key, std::string_view value) {
  KeyValue* kv = attributes->Add();
  kv->set_key(std::string(key));
  kv->mutable_value()->set_string_value(std::string(value));
}

Direction direction_at(size_t d) { return static_cast<Direction>(d); }
Source source_at(size_t s) { return static_cast<Source>(s); }

// One ScopeMetrics under construction: adds metrics and data points with the
// interval's timestamps.
class MetricWriter {
 public:
  MetricWriter(ScopeMetrics* scope, const IntervalWindow& window)
      : scope_(scope), window_(window) {}

  // A monotonic delta Sum (integer points: number(); double: number_as_double()).
  Metric* sum(std::string_view name, std::string_view unit, std::string_view description) {
    Metric* m = metric(name, unit, description);
    m->mutable_sum()->set_aggregation_temporality(kDelta);
    m->mutable_sum()->set_is_monotonic(true);
    return m;
  }
  Metric* gauge(std::string_view name, std::string_view unit, std::string_view description) {
    Metric* m = metric(name, unit, description);
    m->mutable_gauge();
    return m;
  }
  Metric* histogram(std::string_view name, std::string_view unit, std::string_view description) {
    Metric* m = metric(name, unit, description);
    m->mutable_histogram()->set_aggregation_temporality(kDelta);
    return m;
  }
  Metric* exponential_histogram(std::string_view name, std::string_view unit, std::string_view description) {
    Metric* m = metric(name, unit, description);
    m->mutable_exponential_histogram()->set_aggregation_temporality(kDelta);
    return m;
  }

  NumberDataPoint* number(google::protobuf::RepeatedPtrField<NumberDataPoint>* points,
                          uint64_t value) {
    NumberDataPoint* p = points->Add();
    p->set_start_time_unix_nano(window_.start_unix_nano);
    p->set_time_unix_nano(window_.end_unix_nano);
    p->set_as_int(static_cast<int64_t>(value));
    return p;
  }
  NumberDataPoint* number_as_double(google::protobuf::RepeatedPtrField<NumberDataPoint>* points,
                                    double value) {
    NumberDataPoint* p = points->Add();
    p->set_start_time_unix_nano(window_.start_unix_nano);
    p->set_time_unix_nano(window_.end_unix_nano);
    p->set_as_double(value);
    return p;
  }

  // A point of `h` with `bounds` as explicit_bounds; without `sum` unless
  // `with_sum` (OTLP: no sum where values may be negative).
  template <size_t N, typename Bound, size_t B>
  HistogramDataPoint* histogram_point(Metric* m, const telemetry::Histogram<N>& h,
                                      const std::array<Bound, B>& bounds, bool with_sum = true) {
    static_assert(N == B + 1, "one bucket more than bounds");
    HistogramDataPoint* p = m->mutable_histogram()->add_data_points();
    p->set_start_time_unix_nano(window_.start_unix_nano);
    p->set_time_unix_nano(window_.end_unix_nano);
    p->set_count(h.count);
    if (with_sum) p->set_sum(h.sum);
    p->set_min(h.min);
    p->set_max(h.max);
    for (uint64_t c : h.bucket_counts) p->add_bucket_counts(c);
    for (const Bound b : bounds) p->add_explicit_bounds(static_cast<double>(b));
    return p;
  }

  // The non-empty bucket range of `h` as positive buckets (offset = first index).
  ExponentialHistogramDataPoint* exponential_point(Metric* m, const telemetry::ExponentialHistogram& h) {
    ExponentialHistogramDataPoint* p = m->mutable_exponential_histogram()->add_data_points();
    p->set_start_time_unix_nano(window_.start_unix_nano);
    p->set_time_unix_nano(window_.end_unix_nano);
    p->set_count(h.count);
    p->set_sum(h.sum);
    p->set_min(h.min);
    p->set_max(h.max);
    p->set_scale(telemetry::ExponentialHistogram::kScale);
    p->set_zero_count(h.zero_count);
    size_t first = 0, last = h.counts.size();
    while (first < last && h.counts[first] == 0) ++first;
    while (last > first && h.counts[last - 1] == 0) --last;
    p->mutable_positive()->set_offset(static_cast<int32_t>(first) + telemetry::ExponentialHistogram::kMinIndex);
    for (size_t i = first; i < last; ++i) p->mutable_positive()->add_bucket_counts(h.counts[i]);
    return p;
  }

  // Drops metrics that ended up without data points (OTLP wants none empty).
  void drop_empty() {
    auto* metrics = scope_->mutable_metrics();
    for (int i = metrics->size() - 1; i >= 0; --i) {
      const Metric& m = metrics->Get(i);
      const int points = m.has_sum()                     ? m.sum().data_points_size()
                         : m.has_gauge()                 ? m.gauge().data_points_size()
                         : m.has_exponential_histogram() ? m.exponential_histogram().data_points_size()
                                                         : m.histogram().data_points_size();
      if (points == 0) metrics->DeleteSubrange(i, 1);
    }
  }

 private:
  Metric* metric(std::string_view name, std::string_view unit, std::string_view description) {
    Metric* m = scope_->add_metrics();
    m->set_name(std::string(name));
    m->set_unit(std::string(unit));
    m->set_description(std::string(description));
    return m;
  }

  ScopeMetrics* scope_;
  IntervalWindow window_;
};

void write_io_metrics(MetricWriter& w, const IntervalMetrics& m) {
  Metric* ops = w.sum("tierwise.io.operations", "{operation}", "I/Os served by the source");
  Metric* bytes = w.sum("tierwise.io.bytes", "By", "Bytes served by the source");
  for (size_t d = 0; d < kDirectionCount; ++d) {
    for (size_t s = 0; s < kSourceCount; ++s) {
      if (m.operations[d][s] == 0) continue;
      for (auto [metric, value] : {std::pair{ops, m.operations[d][s]}, std::pair{bytes, m.bytes[d][s]}}) {
        NumberDataPoint* p = w.number(metric->mutable_sum()->mutable_data_points(), value);
        add_attribute(p->mutable_attributes(), "io.direction", telemetry::direction_name(direction_at(d)));
        add_attribute(p->mutable_attributes(), "io.source", telemetry::source_name(source_at(s)));
      }
    }
  }

  Metric* size = w.histogram("tierwise.io.size", "By",
                             "Front-end I/O sizes in vscsiStats ioLength bins");
  for (size_t d = 0; d < kDirectionCount; ++d) {
    if (m.size[d].count == 0) continue;
    HistogramDataPoint* p = w.histogram_point(size, m.size[d], telemetry::kIoLengthBounds);
    add_attribute(p->mutable_attributes(), "io.direction", telemetry::direction_name(direction_at(d)));
  }

  Metric* size_bytes = w.sum("tierwise.io.size.bytes", "By",
                             "Front-end bytes per vscsiStats ioLength bin");
  for (size_t d = 0; d < kDirectionCount; ++d) {
    for (size_t b = 0; b < kSizeBinCount; ++b) {
      if (m.size[d].bucket_counts[b] == 0) continue;
      NumberDataPoint* p = w.number(size_bytes->mutable_sum()->mutable_data_points(),
                                    m.size_bin_bytes[d][b]);
      add_attribute(p->mutable_attributes(), "io.direction", telemetry::direction_name(direction_at(d)));
      add_attribute(p->mutable_attributes(), "tierwise.io.size_bin", telemetry::size_bin_label(b));
    }
  }

  Metric* latency = w.histogram("tierwise.io.latency", "us",
                                "I/O latency per source and ioLength bin, microseconds");
  for (size_t d = 0; d < kDirectionCount; ++d) {
    for (size_t s = 0; s < kSourceCount; ++s) {
      for (size_t b = 0; b < kSizeBinCount; ++b) {
        const auto& h = m.latency[d][s][b];
        if (h.count == 0) continue;
        HistogramDataPoint* p = w.histogram_point(latency, h, telemetry::kLatencyBoundsUs);
        add_attribute(p->mutable_attributes(), "io.direction", telemetry::direction_name(direction_at(d)));
        add_attribute(p->mutable_attributes(), "io.source", telemetry::source_name(source_at(s)));
        add_attribute(p->mutable_attributes(), "tierwise.io.size_bin", telemetry::size_bin_label(b));
      }
    }
  }
}

// Latency as exponential histograms (per direction and source, all sizes) and the
// busiest second of the interval (1 s internal resolution), by direction.
void write_distribution_and_peaks(MetricWriter& w, const IntervalMetrics& m) {
  Metric* latency = w.exponential_histogram("tierwise.io.latency.exponential", "us",
                                            "I/O latency per source, microseconds (base-2 exponential buckets)");
  for (size_t d = 0; d < kDirectionCount; ++d) {
    for (size_t s = 0; s < kSourceCount; ++s) {
      if (m.latency_exponential[d][s].count == 0) continue;
      ExponentialHistogramDataPoint* p = w.exponential_point(latency, m.latency_exponential[d][s]);
      add_attribute(p->mutable_attributes(), "io.direction", telemetry::direction_name(direction_at(d)));
      add_attribute(p->mutable_attributes(), "io.source", telemetry::source_name(source_at(s)));
    }
  }
  Metric* ops = w.gauge("tierwise.io.operations.peak", "{operation}/s",
                        "Front-end I/Os completed in the busiest second of the interval");
  Metric* bytes = w.gauge("tierwise.io.bytes.peak", "By/s", "Front-end bytes in the busiest second of the interval");
  Metric* slowest = w.gauge("tierwise.io.latency.peak", "us",
                            "Highest mean front-end latency of one second of the interval, microseconds");
  for (size_t d = 0; d < kDirectionCount; ++d) {
    const telemetry::PeakSecond& peak = m.peak[d];
    if (peak.operations == 0) continue;
    for (Metric* metric : {ops, bytes, slowest}) {
      NumberDataPoint* p = w.number(metric->mutable_gauge()->mutable_data_points(),
                                    metric == ops ? peak.operations : peak.bytes);
      if (metric == slowest) p->set_as_double(peak.mean_latency_us);
      add_attribute(p->mutable_attributes(), "io.direction", telemetry::direction_name(direction_at(d)));
    }
  }
}

// The vscsiStats families (proto/METRICS.md: seek distance, seek distance
// from the closest of the previous 16 commands, outstanding I/Os,
// interarrival), each with vscsiStats' bucket limits (telemetry/vscsi_bounds.hpp);
// points by `io.direction` read, write and all (all only for the closest
// seek), empty ones left out; the seek histograms without `sum`.
void write_vscsi_metrics(MetricWriter& w, const IntervalMetrics& m) {
  constexpr size_t kViews = telemetry::kDirectionViewCount;
  Metric* seek = w.histogram("tierwise.io.seek_distance", "{sector}",
                             "vscsiStats seekDistance: signed sectors from the previous command's last sector");
  for (size_t v = 0; v < kViews; ++v) {
    if (m.seek_distance[v].count == 0) continue;
    HistogramDataPoint* p = w.histogram_point(seek, m.seek_distance[v], telemetry::kSeekDistanceBounds, false);
    add_attribute(p->mutable_attributes(), "io.direction", telemetry::direction_view_name(v));
  }
  Metric* closest = w.histogram("tierwise.io.seek_distance.closest", "{sector}",
                                "vscsiStats seekDistanceShortest: seek distance from the closest of the previous 16 commands");
  if (m.seek_distance_closest.count > 0) {
    HistogramDataPoint* p =
        w.histogram_point(closest, m.seek_distance_closest, telemetry::kSeekDistanceBounds, false);
    add_attribute(p->mutable_attributes(), "io.direction", telemetry::direction_view_name(telemetry::kAllDirections));
  }
  Metric* outstanding = w.histogram("tierwise.io.outstanding", "{operation}",
                                    "vscsiStats outstandingIOs: I/Os in flight when one is issued, itself included");
  for (size_t v = 0; v < kViews; ++v) {
    if (m.outstanding[v].count == 0) continue;
    HistogramDataPoint* p = w.histogram_point(outstanding, m.outstanding[v], telemetry::kOutstandingBounds);
    add_attribute(p->mutable_attributes(), "io.direction", telemetry::direction_view_name(v));
  }
  Metric* interarrival = w.histogram("tierwise.io.interarrival", "us",
                                     "vscsiStats interarrival: microseconds since the previous command was issued");
  for (size_t v = 0; v < kViews; ++v) {
    if (m.interarrival[v].count == 0) continue;
    HistogramDataPoint* p = w.histogram_point(interarrival, m.interarrival[v], telemetry::kInterarrivalBoundsUs);
    add_attribute(p->mutable_attributes(), "io.direction", telemetry::direction_view_name(v));
  }
  Metric* latency = w.histogram("tierwise.io.latency.vscsistats", "us",
                                "Front-end latency in vscsiStats' latency buckets (imported vscsiStats output)");
  for (size_t v = 0; v < kViews; ++v) {
    if (m.vscsi_latency[v].count == 0) continue;
    HistogramDataPoint* p = w.histogram_point(latency, m.vscsi_latency[v], telemetry::kVscsiLatencyBoundsUs);
    add_attribute(p->mutable_attributes(), "io.direction", telemetry::direction_view_name(v));
  }
}

// Block alignment (proto/METRICS.md, telemetry/alignment.hpp): where commands
// start within their 4 KiB block by direction view, and by direction the
// bytes of misaligned commands and the blocks spanned as issued and aligned;
// empty points left out.
void write_alignment_metrics(MetricWriter& w, const IntervalMetrics& m) {
  Metric* alignment = w.histogram("tierwise.io.alignment", "{sector}",
                                  "Sectors into its 4 KiB block where a command starts (0: aligned)");
  for (size_t v = 0; v < telemetry::kDirectionViewCount; ++v) {
    if (m.alignment[v].count == 0) continue;
    HistogramDataPoint* p = w.histogram_point(alignment, m.alignment[v], telemetry::kAlignmentBounds);
    add_attribute(p->mutable_attributes(), "io.direction", telemetry::direction_view_name(v));
  }
  Metric* misaligned = w.sum("tierwise.io.alignment.misaligned_bytes", "By",
                             "Bytes of the commands that do not start on a 4 KiB boundary");
  Metric* blocks = w.sum("tierwise.io.alignment.blocks", "{block}",
                         "4 KiB blocks the commands span, as issued and if aligned");
  for (size_t d = 0; d < kDirectionCount; ++d) {
    if (m.alignment[d].count == 0) continue;
    const std::string_view direction = telemetry::direction_name(direction_at(d));
    NumberDataPoint* p = w.number(misaligned->mutable_sum()->mutable_data_points(), m.misaligned_bytes[d]);
    add_attribute(p->mutable_attributes(), "io.direction", direction);
    for (size_t l = 0; l < telemetry::kAlignmentLayoutCount; ++l) {
      p = w.number(blocks->mutable_sum()->mutable_data_points(), m.alignment_blocks[d][l]);
      add_attribute(p->mutable_attributes(), "io.direction", direction);
      add_attribute(p->mutable_attributes(), "tierwise.io.alignment.layout", telemetry::kAlignmentLayoutNames[l]);
    }
  }
}

// Storage-bound CPU (proto/METRICS.md), only what was measured (`serve`):
// system.cpu.time with a point for every cpu.mode, zeros included, and
// system.cpu.logical.count; with a consumer, tierwise.consumer.cpu.time by
// cpu.mode user and system, with its tierwise.consumer.kind.
void write_cpu_metrics(MetricWriter& w, const telemetry::CpuUsage& cpu) {
  if (cpu.host_measured) {
    Metric* time = w.sum("system.cpu.time", "s", "Host CPU time in the interval over all CPUs, by mode");
    for (size_t mode = 0; mode < telemetry::kCpuModeCount; ++mode) {
      NumberDataPoint* p = w.number_as_double(time->mutable_sum()->mutable_data_points(), cpu.host_seconds[mode]);
      add_attribute(p->mutable_attributes(), "cpu.mode", telemetry::kCpuModeNames[mode]);
    }
    w.number(w.gauge("system.cpu.logical.count", "{cpu}", "Online logical CPUs of the host at interval end")
                 ->mutable_gauge()->mutable_data_points(),
             cpu.logical_cpus);
  }
  if (cpu.consumer_kind == telemetry::ConsumerKind::kNone) return;
  Metric* consumer = w.sum("tierwise.consumer.cpu.time", "s",
                           "CPU time in the interval of the volume's consumer, by mode");
  for (const auto& [mode, seconds] : {std::pair{"user", cpu.consumer.user_seconds},
                                      std::pair{"system", cpu.consumer.system_seconds}}) {
    NumberDataPoint* p = w.number_as_double(consumer->mutable_sum()->mutable_data_points(), seconds);
    add_attribute(p->mutable_attributes(), "cpu.mode", mode);
    add_attribute(p->mutable_attributes(), "tierwise.consumer.kind", telemetry::consumer_kind_name(cpu.consumer_kind));
  }
}

// Destaged bytes per second over the interval (0 for an empty interval).
uint64_t destage_rate(const telemetry::CacheInterval& c, const IntervalWindow& window) {
  const uint64_t ns = window.end_unix_nano - window.start_unix_nano;
  if (ns == 0) return 0;
  return static_cast<uint64_t>(static_cast<double>(c.destaged_bytes) * kNanosPerSecond /
                               static_cast<double>(ns));
}

void write_cache_metrics(MetricWriter& w, const telemetry::CacheInterval& c,
                         const IntervalWindow& window) {
  Metric* hits = w.sum("tierwise.cache.hits", "{block}", "4 KiB blocks found in the tier");
  Metric* misses = w.sum("tierwise.cache.misses", "{block}", "4 KiB blocks not found in the tier");
  for (size_t d = 0; d < kDirectionCount; ++d) {
    for (auto [metric, value] : {std::pair{hits, c.hit_blocks[d]}, std::pair{misses, c.miss_blocks[d]}}) {
      NumberDataPoint* p = w.number(metric->mutable_sum()->mutable_data_points(), value);
      add_attribute(p->mutable_attributes(), "io.direction", telemetry::direction_name(direction_at(d)));
    }
  }
  const struct {
    std::string_view name, description;
    uint64_t value;
  } sums[] = {
      {"tierwise.cache.population", "Bytes inserted into the tier", c.population_bytes},
      {"tierwise.cache.evictions", "Bytes evicted from the tier", c.eviction_bytes},
      {"tierwise.cache.destaged", "Dirty bytes written back to the datastore", c.destaged_bytes},
      {"tierwise.cache.journal.writes", "Record bytes written to the write-back journal",
       c.journal_bytes},
      {"tierwise.replication.bytes", "Record bytes sent to each peer", c.replicated_bytes},
  };
  for (const auto& s : sums) {
    w.number(w.sum(s.name, "By", s.description)->mutable_sum()->mutable_data_points(), s.value);
  }
  const struct {
    std::string_view name, description;
    uint64_t value;
  } gauges[] = {
      {"tierwise.cache.occupancy", "Bytes held by the tier at interval end", c.occupancy_bytes},
      {"tierwise.cache.capacity", "Tier capacity", c.capacity_bytes},
      {"tierwise.cache.dirty", "Dirty bytes at interval end", c.dirty_bytes},
      {"tierwise.cache.destage.backlog", "Journal data bytes not yet destaged and reclaimed",
       c.backlog_bytes},
  };
  for (const auto& g : gauges) {
    w.number(w.gauge(g.name, "By", g.description)->mutable_gauge()->mutable_data_points(), g.value);
  }
  const struct {
    std::string_view name, unit, description;
    uint64_t value;
  } write_back[] = {
      {"tierwise.cache.destage.rate", "By/s", "Destaged bytes per second over the interval",
       destage_rate(c, window)},
      {"tierwise.cache.destage.rate_limit", "By/s", "Destage rate limit (0: unlimited)",
       c.destage_rate_limit_bytes_per_s},
      {"tierwise.replication.peers", "{peer}", "Peers acknowledging journal records",
       c.healthy_peers},
  };
  for (const auto& g : write_back) {
    w.number(w.gauge(g.name, g.unit, g.description)->mutable_gauge()->mutable_data_points(), g.value);
  }
  w.number(w.sum("tierwise.cache.fallbacks", "{event}",
                 "Write-back to write-through fallbacks after a peer failed")
               ->mutable_sum()->mutable_data_points(),
           c.fallbacks);
  w.number(w.sum("tierwise.cache.destage.errors", "{error}",
                 "Destage writes and datastore flushes the datastore failed (retried with back-off)")
               ->mutable_sum()->mutable_data_points(),
           c.destage_errors);
  w.number(w.sum("tierwise.cache.tier.errors", "{error}",
                 "Tier requests that failed (the first one disables the tier)")
               ->mutable_sum()->mutable_data_points(),
           c.tier_errors);
}

}  // namespace

void encode_metrics(std::span<const VolumeInterval> volumes, const IntervalWindow& window,
                    std::string_view agent_version, ExportMetricsServiceRequest* out) {
  if (volumes.size() > kMaxVolumesPerRequest) {
    throw std::invalid_argument("an OTLP request carries at most " +
                                std::to_string(kMaxVolumesPerRequest) + " volumes, got " +
                                std::to_string(volumes.size()));
  }
  if (window.end_unix_nano < window.start_unix_nano) {
    throw std::invalid_argument("interval ends before it starts");
  }
  out->Clear();
  for (const VolumeInterval& v : volumes) {
    auto* rm = out->add_resource_metrics();
    Attributes* attrs = rm->mutable_resource()->mutable_attributes();
    add_attribute(attrs, "service.name", "tierwise-agent");
    add_attribute(attrs, "service.version", agent_version);
    add_attribute(attrs, "host.id", v.resource->host_id);
    add_attribute(attrs, "tierwise.volume.id", v.resource->volume_id);
    if (!v.resource->cluster_id.empty()) {
      add_attribute(attrs, "tierwise.cluster.id", v.resource->cluster_id);
    }
    if (!v.resource->host_name.empty()) add_attribute(attrs, "host.name", v.resource->host_name);
    if (!v.resource->volume_name.empty()) {
      add_attribute(attrs, "tierwise.volume.name", v.resource->volume_name);
    }
    if (!v.resource->source.empty()) add_attribute(attrs, "tierwise.volume.source", v.resource->source);
    add_attribute(attrs, "tierwise.cache.mode",
                  v.metrics->cache.write_back ? "write-back" : "write-through");

    ScopeMetrics* scope = rm->add_scope_metrics();
    scope->mutable_scope()->set_name("tierwise.agent");
    scope->mutable_scope()->set_version(std::string(agent_version));
    MetricWriter writer(scope, window);
    write_io_metrics(writer, *v.metrics);
    write_distribution_and_peaks(writer, *v.metrics);
    write_vscsi_metrics(writer, *v.metrics);
    write_alignment_metrics(writer, *v.metrics);
    write_cache_metrics(writer, v.metrics->cache, window);
    write_cpu_metrics(writer, v.metrics->cpu);
    writer.drop_empty();
  }
}

}  // namespace tierwise::exporter
