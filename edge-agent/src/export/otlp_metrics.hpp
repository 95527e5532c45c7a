// OTLP metrics encoding of the per-volume interval telemetry: builds the
// ExportMetricsServiceRequest that POST <ingest>/v1/metrics carries
// (proto/METRICS.md; OTLP specification, opentelemetry-proto metrics.proto).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "opentelemetry/proto/collector/metrics/v1/metrics_service.pb.h"
#include "telemetry/interval_metrics.hpp"

namespace tierwise::exporter {

using ExportMetricsServiceRequest =
    opentelemetry::proto::collector::metrics::v1::ExportMetricsServiceRequest;

// Most volumes (ResourceMetrics) per request, so a request stays small enough for
// ingest whatever the number of volumes.
inline constexpr size_t kMaxVolumesPerRequest = 200;

// The resource attributes of one volume (METRICS.md "Resource").
struct VolumeResource {
  std::string host_id;      // host.id: keyed hash of the host name (hex)
  std::string volume_id;    // tierwise.volume.id: keyed hash of the volume name (hex)
  std::string host_name;    // host.name: empty unless names are sent (--send-names)
  std::string volume_name;  // tierwise.volume.name: empty unless names are sent
  std::string cluster_id;   // tierwise.cluster.id: keyed hash of the cluster name (hex); empty: none
  std::string source;       // tierwise.volume.source: "vscsistats" for imported output; empty: the agent
};

// One volume's metrics for the interval being encoded.
struct VolumeInterval {
  const VolumeResource* resource;
  const telemetry::IntervalMetrics* metrics;
};

// Every data point's start_time_unix_nano / time_unix_nano: the interval's start
// and end, Unix epoch nanoseconds.
struct IntervalWindow {
  uint64_t start_unix_nano = 0;
  uint64_t end_unix_nano = 0;
};

// Fills `out` (cleared first) with one ResourceMetrics per volume, scope
// "tierwise.agent", and the metrics of METRICS.md: sums and histograms with
// delta temporality, gauges for occupancy/capacity/dirty. Data points whose
// counts are all zero are left out (a sum point for cache counters is always
// written, and every cpu.mode of a measured system.cpu.time). `agent_version` goes to service.version and the scope version.
// Throws std::invalid_argument when more than kMaxVolumesPerRequest volumes are
// given or the window ends before it starts.
void encode_metrics(std::span<const VolumeInterval> volumes, const IntervalWindow& window,
                    std::string_view agent_version, ExportMetricsServiceRequest* out);

}  // namespace tierwise::exporter
