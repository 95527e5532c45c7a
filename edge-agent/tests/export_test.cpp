// Export: OTLP encoding decoded with the generated classes, delivery to a
// real HTTP receiver on 127.0.0.1 (headers, body, retries, rejections), and the
// per-volume exporter replay and serve share.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "export/batches.hpp"
#include "export/http_sender.hpp"
#include "export/otlp_metrics.hpp"
#include "export/retry_delay.hpp"
#include "export/volume_exporter.hpp"
#include "export_http_receiver.hpp"
#include "test_support.hpp"
#include "sampling/keyed_hash.hpp"
#include "sampling/shards_sampler.hpp"
#include "telemetry/volume_collector.hpp"
#include "tierwise/v1/reference_batch.pb.h"
#include "trace/record.hpp"

namespace tierwise::exporter {
namespace {

namespace otlp = opentelemetry::proto;
using telemetry::Direction;
using telemetry::Source;

std::string attribute(const google::protobuf::RepeatedPtrField<otlp::common::v1::KeyValue>& attrs,
                      const std::string& key) {
  for (const auto& kv : attrs) {
    if (kv.key() == key) return kv.value().string_value();
  }
  return "<absent>";
}

const otlp::metrics::v1::Metric* find_metric(const otlp::metrics::v1::ScopeMetrics& scope,
                                             const std::string& name) {
  for (const auto& m : scope.metrics()) {
    if (m.name() == name) return &m;
  }
  return nullptr;
}

telemetry::VolumeCollector sample_collector() {
  telemetry::VolumeCollector c;
  c.record_frontend(Direction::kRead, 4096, 3000, 1'000'000);
  c.record_source(Direction::kRead, Source::kCache, 4096, 4096, 1500);
  c.record_frontend(Direction::kRead, 65536, 900'000, 1'500'000);
  c.record_source(Direction::kRead, Source::kDatastore, 65536, 65536, 850'000);
  c.record_frontend(Direction::kWrite, 4097, 2'000'000, 4'000'000);
  c.record_source(Direction::kWrite, Source::kDatastore, 4097, 4608, 1'900'000);
  telemetry::CacheTotals totals;
  totals.hit_blocks = {1, 0};
  totals.miss_blocks = {16, 2};
  totals.population_bytes = 18 * 4096;
  totals.occupancy_bytes = 18 * 4096;
  totals.capacity_bytes = 256 << 20;
  totals.destaged_bytes = 5 << 20;  // over the 10 s interval: 524288 By/s
  totals.write_back = true;
  c.close_interval(totals);
  return c;
}

TEST(OtlpMetricsTest, RoundTripsThroughTheGeneratedClasses) {
  const telemetry::VolumeCollector c = sample_collector();
  const VolumeResource named{"h0571d", "v0123", "esx-01", "cloudphysics_w_sample", "c0ffee01", ""};
  const VolumeResource anonymous{"h0571d", "v4567", "", "", "", ""};
  const VolumeInterval volumes[] = {{&named, &c.metrics()}, {&anonymous, &c.metrics()}};
  const IntervalWindow window{1'700'000'000'000'000'000, 1'700'000'010'000'000'000};
  ExportMetricsServiceRequest request;
  encode_metrics(volumes, window, "0.1.0", &request);

  ExportMetricsServiceRequest decoded;
  ASSERT_TRUE(decoded.ParseFromString(request.SerializeAsString()));
  ASSERT_EQ(decoded.resource_metrics_size(), 2);

  const auto& rm = decoded.resource_metrics(0);
  const auto& attrs = rm.resource().attributes();
  EXPECT_EQ(attribute(attrs, "service.name"), "tierwise-agent");
  EXPECT_EQ(attribute(attrs, "service.version"), "0.1.0");
  EXPECT_EQ(attribute(attrs, "host.id"), "h0571d");
  EXPECT_EQ(attribute(attrs, "tierwise.volume.id"), "v0123");
  EXPECT_EQ(attribute(attrs, "host.name"), "esx-01");
  EXPECT_EQ(attribute(attrs, "tierwise.volume.name"), "cloudphysics_w_sample");
  EXPECT_EQ(attribute(attrs, "tierwise.cluster.id"), "c0ffee01");
  EXPECT_EQ(attribute(attrs, "tierwise.cache.mode"), "write-back");
  const auto& anon = decoded.resource_metrics(1).resource().attributes();
  EXPECT_EQ(attribute(anon, "host.name"), "<absent>") << "names only with --send-names";
  EXPECT_EQ(attribute(anon, "tierwise.volume.name"), "<absent>");
  EXPECT_EQ(attribute(anon, "tierwise.cluster.id"), "<absent>") << "a host in no cluster";

  ASSERT_EQ(rm.scope_metrics_size(), 1);
  const auto& scope = rm.scope_metrics(0);
  EXPECT_EQ(scope.scope().name(), "tierwise.agent");
  std::set<std::string> names;
  for (const auto& m : scope.metrics()) names.insert(m.name());
  EXPECT_EQ(names, (std::set<std::string>{
                       "tierwise.io.operations", "tierwise.io.bytes", "tierwise.io.size",
                       "tierwise.io.size.bytes", "tierwise.io.latency", "tierwise.io.latency.exponential",
                       "tierwise.io.operations.peak", "tierwise.io.bytes.peak", "tierwise.io.latency.peak",
                       "tierwise.cache.hits",
                       "tierwise.cache.misses", "tierwise.cache.population",
                       "tierwise.cache.evictions", "tierwise.cache.destaged",
                       "tierwise.cache.occupancy", "tierwise.cache.capacity",
                       "tierwise.cache.dirty", "tierwise.cache.destage.backlog",
                       "tierwise.cache.destage.rate", "tierwise.cache.destage.rate_limit",
                       "tierwise.cache.journal.writes", "tierwise.replication.bytes",
                       "tierwise.replication.peers", "tierwise.cache.fallbacks",
                       "tierwise.cache.destage.errors", "tierwise.cache.tier.errors"}));

  // Sums: delta, monotonic; every point carries the interval's start and end.
  const auto* ops = find_metric(scope, "tierwise.io.operations");
  EXPECT_EQ(ops->unit(), "{operation}");
  EXPECT_EQ(ops->sum().aggregation_temporality(), otlp::metrics::v1::AGGREGATION_TEMPORALITY_DELTA);
  EXPECT_TRUE(ops->sum().is_monotonic());
  ASSERT_EQ(ops->sum().data_points_size(), 5);  // read: frontend, cache, datastore; write: frontend, datastore
  for (const auto& p : ops->sum().data_points()) {
    EXPECT_EQ(p.start_time_unix_nano(), window.start_unix_nano);
    EXPECT_EQ(p.time_unix_nano(), window.end_unix_nano);
  }
  const auto& read_frontend = ops->sum().data_points(0);
  EXPECT_EQ(attribute(read_frontend.attributes(), "io.direction"), "read");
  EXPECT_EQ(attribute(read_frontend.attributes(), "io.source"), "frontend");
  EXPECT_EQ(read_frontend.as_int(), 2);

  // Size histogram: vscsiStats bounds; the 4097-byte write is in bin "8191".
  const auto* size = find_metric(scope, "tierwise.io.size");
  EXPECT_EQ(size->unit(), "By");
  EXPECT_EQ(size->histogram().aggregation_temporality(), otlp::metrics::v1::AGGREGATION_TEMPORALITY_DELTA);
  const auto& write_sizes = size->histogram().data_points(1);
  EXPECT_EQ(attribute(write_sizes.attributes(), "io.direction"), "write");
  ASSERT_EQ(write_sizes.explicit_bounds_size(), 17);
  EXPECT_EQ(write_sizes.explicit_bounds(0), 512);
  EXPECT_EQ(write_sizes.explicit_bounds(3), 4095);
  EXPECT_EQ(write_sizes.explicit_bounds(16), 524288);
  ASSERT_EQ(write_sizes.bucket_counts_size(), 18);
  EXPECT_EQ(write_sizes.bucket_counts(5), 1u);  // (4096, 8191]
  EXPECT_EQ(write_sizes.count(), 1u);
  EXPECT_EQ(write_sizes.sum(), 4097);

  const auto* size_bytes = find_metric(scope, "tierwise.io.size.bytes");
  bool found_65536 = false;
  for (const auto& p : size_bytes->sum().data_points()) {
    if (attribute(p.attributes(), "tierwise.io.size_bin") == "65536") {
      found_65536 = true;
      EXPECT_EQ(p.as_int(), 65536);
      EXPECT_EQ(attribute(p.attributes(), "io.direction"), "read");
    }
  }
  EXPECT_TRUE(found_65536);

  // Latency histograms: log-linear bounds in us, one point per (direction, source, bin).
  const auto* latency = find_metric(scope, "tierwise.io.latency");
  EXPECT_EQ(latency->unit(), "us");
  ASSERT_EQ(latency->histogram().data_points_size(), 6);
  bool found_cache = false;
  for (const auto& p : latency->histogram().data_points()) {
    ASSERT_EQ(p.explicit_bounds_size(), 19);
    EXPECT_EQ(p.explicit_bounds(0), 1);
    EXPECT_EQ(p.explicit_bounds(18), 1'000'000);
    if (attribute(p.attributes(), "io.source") == "cache") {
      found_cache = true;
      EXPECT_EQ(attribute(p.attributes(), "tierwise.io.size_bin"), "4096");
      EXPECT_EQ(p.bucket_counts(1), 1u);  // 1.5 us
      EXPECT_DOUBLE_EQ(p.sum(), 1.5);
    }
  }
  EXPECT_TRUE(found_cache);

  // Cache counters and gauges.
  const auto* misses = find_metric(scope, "tierwise.cache.misses");
  EXPECT_EQ(misses->unit(), "{block}");
  EXPECT_EQ(misses->sum().data_points(0).as_int(), 16);
  EXPECT_EQ(attribute(misses->sum().data_points(0).attributes(), "io.direction"), "read");
  const auto* capacity = find_metric(scope, "tierwise.cache.capacity");
  ASSERT_TRUE(capacity->has_gauge());
  EXPECT_EQ(capacity->gauge().data_points(0).as_int(), 256 << 20);
  EXPECT_EQ(find_metric(scope, "tierwise.cache.population")->sum().data_points(0).as_int(), 18 * 4096);
  const auto* rate = find_metric(scope, "tierwise.cache.destage.rate");
  EXPECT_EQ(rate->unit(), "By/s");
  EXPECT_EQ(rate->gauge().data_points(0).as_int(), (5 << 20) / 10);
}

TEST(OtlpMetricsTest, LatencyAsExponentialHistogramsAndTheBusiestSecond) {
  const telemetry::VolumeCollector c = sample_collector();
  const exporter::VolumeResource resource{"aa01", "bb02", "", "", "", ""};
  const exporter::VolumeInterval volume{&resource, &c.metrics()};
  ExportMetricsServiceRequest request;
  exporter::encode_metrics({&volume, 1}, {1'000'000'000, 11'000'000'000}, "0.1.0", &request);
  const auto& scope = request.resource_metrics(0).scope_metrics(0);

  const auto* exponential = find_metric(scope, "tierwise.io.latency.exponential");
  ASSERT_NE(exponential, nullptr);
  EXPECT_EQ(exponential->exponential_histogram().aggregation_temporality(),
            otlp::metrics::v1::AGGREGATION_TEMPORALITY_DELTA);
  ASSERT_EQ(exponential->exponential_histogram().data_points_size(), 5);  // read: frontend, cache, datastore; write: 2
  const auto& frontend_reads = exponential->exponential_histogram().data_points(0);
  EXPECT_EQ(frontend_reads.scale(), 3);
  EXPECT_EQ(frontend_reads.count(), 2u);
  EXPECT_DOUBLE_EQ(frontend_reads.max(), 900.0);
  // 3 us -> index ceil(log2(3) * 8) - 1 = 12; 900 us -> 78: offset 12, 67 buckets, both ends 1.
  EXPECT_EQ(frontend_reads.positive().offset(), 12);
  ASSERT_EQ(frontend_reads.positive().bucket_counts_size(), 67);
  EXPECT_EQ(frontend_reads.positive().bucket_counts(0), 1u);
  EXPECT_EQ(frontend_reads.positive().bucket_counts(66), 1u);

  // Both reads completed within second 1: 2 I/Os, 68 KiB, mean (3 + 900) / 2 us.
  const auto* ops = find_metric(scope, "tierwise.io.operations.peak");
  ASSERT_NE(ops, nullptr);
  EXPECT_EQ(ops->gauge().data_points(0).as_int(), 2);
  EXPECT_EQ(find_metric(scope, "tierwise.io.bytes.peak")->gauge().data_points(0).as_int(), 4096 + 65536);
  EXPECT_DOUBLE_EQ(find_metric(scope, "tierwise.io.latency.peak")->gauge().data_points(0).as_double(), 451.5);
  EXPECT_EQ(ops->gauge().data_points(1).as_int(), 1);  // the write
}

// The vscsiStats families (proto/METRICS.md): each with exactly the
// contract's bounds and one count more, points by io.direction read, write
// and all (all only for the closest seek), no sum on the seek distances.
TEST(OtlpMetricsTest, VscsiStatsFamiliesAndAlignmentCarryTheContractsBounds) {
  telemetry::VolumeCollector c;
  c.record_issue(Direction::kRead, 0, 7, 1'000'000);
  c.record_outstanding(Direction::kRead, 1, 1);
  c.record_issue(Direction::kRead, 8, 15, 1'003'000);      // sequential: bucket "1", 3 us
  c.record_outstanding(Direction::kRead, 2, 2);
  c.record_issue(Direction::kWrite, 1000, 1000, 1'503'000);  // 985 sectors on, 500 us
  c.record_outstanding(Direction::kWrite, 3, 1);
  c.record_issue(Direction::kWrite, 900, 900, 1'503'000);    // 100 sectors back, at once
  c.record_outstanding(Direction::kWrite, 4, 2);
  c.close_interval(telemetry::CacheTotals{});
  const VolumeResource r{"h", "v", "", "", "", ""};
  const VolumeInterval v{&r, &c.metrics()};
  ExportMetricsServiceRequest request;
  encode_metrics({&v, 1}, {0, 10}, "0.1.0", &request);
  ExportMetricsServiceRequest decoded;
  ASSERT_TRUE(decoded.ParseFromString(request.SerializeAsString()));
  const auto& scope = decoded.resource_metrics(0).scope_metrics(0);

  const std::vector<double> seek_bounds = {-500000, -100000, -50000, -10000, -5000, -1000, -500, -128, -64,
                                           -32, -16, -8, -6, -4, -2, -1, 0, 1, 2, 4, 6, 8, 16, 32, 64, 128,
                                           500, 1000, 5000, 10000, 50000, 100000, 500000};
  const std::vector<double> outstanding_bounds = {1, 2, 4, 6, 8, 12, 16, 20, 24, 28, 32, 64};
  const std::vector<double> interarrival_bounds = {1, 10, 100, 500, 1000, 5000, 15000, 30000, 50000, 100000};
  struct Family {
    std::string name, unit;
    const std::vector<double>* bounds;
    std::vector<std::string> directions;
    bool sum;
  };
  const Family families[] = {
      {"tierwise.io.seek_distance", "{sector}", &seek_bounds, {"read", "write", "all"}, false},
      {"tierwise.io.seek_distance.closest", "{sector}", &seek_bounds, {"all"}, false},
      {"tierwise.io.outstanding", "{operation}", &outstanding_bounds, {"read", "write", "all"}, true},
      {"tierwise.io.interarrival", "us", &interarrival_bounds, {"read", "write", "all"}, true},
  };
  std::map<std::string, const otlp::metrics::v1::HistogramDataPoint*> points;
  for (const Family& f : families) {
    SCOPED_TRACE(f.name);
    const auto* m = find_metric(scope, f.name);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->unit(), f.unit);
    ASSERT_TRUE(m->has_histogram());
    EXPECT_EQ(m->histogram().aggregation_temporality(), otlp::metrics::v1::AGGREGATION_TEMPORALITY_DELTA);
    std::vector<std::string> directions;
    for (const auto& p : m->histogram().data_points()) {
      directions.push_back(attribute(p.attributes(), "io.direction"));
      EXPECT_EQ(p.attributes_size(), 1);
      EXPECT_EQ(std::vector<double>(p.explicit_bounds().begin(), p.explicit_bounds().end()), *f.bounds);
      EXPECT_EQ(p.bucket_counts_size(), static_cast<int>(f.bounds->size()) + 1);
      EXPECT_EQ(p.has_sum(), f.sum);
      EXPECT_EQ(p.start_time_unix_nano(), 0u);
      EXPECT_EQ(p.time_unix_nano(), 10u);
      uint64_t total = 0;
      for (const uint64_t n : p.bucket_counts()) total += n;
      EXPECT_EQ(total, p.count());
      points[f.name + "/" + directions.back()] = &p;
    }
    EXPECT_EQ(directions, f.directions);
  }
  // Seek: all 3 (8 - 7, 1000 - 15, 900 - 1000), read 1, write 1.
  const auto* seek_all = points["tierwise.io.seek_distance/all"];
  EXPECT_EQ(seek_all->count(), 3u);
  EXPECT_EQ(seek_all->bucket_counts(17), 1u);  // "1"
  EXPECT_EQ(seek_all->bucket_counts(27), 1u);  // 985: (500, 1000]
  EXPECT_EQ(seek_all->bucket_counts(8), 1u);   // -100: (-128, -64]
  EXPECT_EQ(seek_all->min(), -100);
  EXPECT_EQ(seek_all->max(), 985);
  EXPECT_EQ(points["tierwise.io.seek_distance/read"]->bucket_counts(17), 1u);
  EXPECT_EQ(points["tierwise.io.seek_distance/write"]->bucket_counts(8), 1u);
  EXPECT_EQ(points["tierwise.io.seek_distance.closest/all"]->count(), 3u);
  // Outstanding: 1, 2, 3, 4 (all); reads 1, 2; writes 1, 2.
  const auto* outstanding_all = points["tierwise.io.outstanding/all"];
  EXPECT_EQ(outstanding_all->count(), 4u);
  EXPECT_EQ(outstanding_all->bucket_counts(2), 2u);  // 3 and 4: (2, 4]
  EXPECT_EQ(outstanding_all->sum(), 10);
  EXPECT_EQ(points["tierwise.io.outstanding/write"]->sum(), 3);
  // Interarrival: 3 us, 500 us, 0 (all); 3 us (read); 0 (write).
  const auto* interarrival_all = points["tierwise.io.interarrival/all"];
  EXPECT_EQ(interarrival_all->count(), 3u);
  EXPECT_EQ(interarrival_all->bucket_counts(0), 1u);
  EXPECT_EQ(interarrival_all->bucket_counts(1), 1u);
  EXPECT_EQ(interarrival_all->bucket_counts(3), 1u);  // 500 us, a bound: (100, 500]
  EXPECT_DOUBLE_EQ(interarrival_all->sum(), 503.0);
  EXPECT_EQ(points["tierwise.io.interarrival/read"]->bucket_counts(1), 1u);
  EXPECT_EQ(points["tierwise.io.interarrival/write"]->bucket_counts(0), 1u);

  // Alignment: commands at sectors 0, 8 (aligned), 1000 (0 in: 1000 mod 8 = 0) and 900 (4 in).
  const auto* alignment = find_metric(scope, "tierwise.io.alignment");
  ASSERT_NE(alignment, nullptr);
  EXPECT_EQ(alignment->unit(), "{sector}");
  ASSERT_EQ(alignment->histogram().data_points_size(), 3);  // read, write, all
  for (const auto& p : alignment->histogram().data_points()) {
    EXPECT_EQ(std::vector<double>(p.explicit_bounds().begin(), p.explicit_bounds().end()),
              (std::vector<double>{0, 1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(p.bucket_counts_size(), 8);
    if (attribute(p.attributes(), "io.direction") == "all") {
      EXPECT_EQ(p.bucket_counts(0), 3u);
      EXPECT_EQ(p.bucket_counts(4), 1u);
    }
  }
  const auto* misaligned = find_metric(scope, "tierwise.io.alignment.misaligned_bytes");
  ASSERT_NE(misaligned, nullptr);
  std::map<std::string, int64_t> misaligned_by_direction;
  for (const auto& p : misaligned->sum().data_points()) misaligned_by_direction[attribute(p.attributes(), "io.direction")] = p.as_int();
  EXPECT_EQ(misaligned_by_direction, (std::map<std::string, int64_t>{{"read", 0}, {"write", 512}}));
  const auto* blocks = find_metric(scope, "tierwise.io.alignment.blocks");
  ASSERT_NE(blocks, nullptr);
  std::map<std::string, int64_t> blocks_by_key;
  for (const auto& p : blocks->sum().data_points()) {
    blocks_by_key[attribute(p.attributes(), "io.direction") + "/" + attribute(p.attributes(), "tierwise.io.alignment.layout")] = p.as_int();
  }
  EXPECT_EQ(blocks_by_key, (std::map<std::string, int64_t>{
                               {"read/issued", 2}, {"read/aligned", 2}, {"write/issued", 2}, {"write/aligned", 2}}));

  // Without issued commands there is none of them (sample_collector records none).
  const telemetry::VolumeCollector quiet = sample_collector();
  const VolumeInterval q{&r, &quiet.metrics()};
  encode_metrics({&q, 1}, {0, 10}, "0.1.0", &request);
  for (const Family& f : families) {
    EXPECT_EQ(find_metric(request.resource_metrics(0).scope_metrics(0), f.name), nullptr) << f.name;
  }
  for (const char* name : {"tierwise.io.alignment", "tierwise.io.alignment.misaligned_bytes", "tierwise.io.alignment.blocks"}) {
    EXPECT_EQ(find_metric(request.resource_metrics(0).scope_metrics(0), name), nullptr) << name;
  }
}

// Storage-bound CPU (proto/METRICS.md): system.cpu.time with all seven
// cpu.mode points (zeros too) and system.cpu.logical.count when the host was
// measured, tierwise.consumer.cpu.time (user, system) with the consumer's
// kind when it is known; none of them when nothing was measured.
TEST(OtlpMetricsTest, CpuTimeOfTheHostAndTheConsumerOnlyWhenMeasured) {
  telemetry::CpuUsage cpu;
  cpu.host_measured = true;
  cpu.host_seconds = {12.5, 0, 3.25, 60, 0.5, 0.125, 0};
  cpu.logical_cpus = 8;
  cpu.consumer_kind = telemetry::ConsumerKind::kProcess;
  cpu.consumer = {1.5, 0.25};
  telemetry::VolumeCollector c;
  c.record_frontend(Direction::kRead, 4096, 3000, 1'000'000);
  c.close_interval(telemetry::CacheTotals{}, cpu);
  const VolumeResource r{"h", "v", "", "", "", ""};
  const VolumeInterval v{&r, &c.metrics()};
  const IntervalWindow window{1'700'000'000'000'000'000, 1'700'000'010'000'000'000};
  ExportMetricsServiceRequest request;
  encode_metrics({&v, 1}, window, "0.1.0", &request);
  ExportMetricsServiceRequest decoded;
  ASSERT_TRUE(decoded.ParseFromString(request.SerializeAsString()));
  const auto& scope = decoded.resource_metrics(0).scope_metrics(0);

  const auto* host = find_metric(scope, "system.cpu.time");
  ASSERT_NE(host, nullptr);
  EXPECT_EQ(host->unit(), "s");
  ASSERT_TRUE(host->has_sum());
  EXPECT_TRUE(host->sum().is_monotonic());
  EXPECT_EQ(host->sum().aggregation_temporality(), otlp::metrics::v1::AGGREGATION_TEMPORALITY_DELTA);
  std::map<std::string, double> by_mode;
  for (const auto& p : host->sum().data_points()) {
    EXPECT_EQ(p.value_case(), otlp::metrics::v1::NumberDataPoint::kAsDouble);
    EXPECT_EQ(p.attributes_size(), 1);
    EXPECT_EQ(p.start_time_unix_nano(), window.start_unix_nano);
    EXPECT_EQ(p.time_unix_nano(), window.end_unix_nano);
    by_mode[attribute(p.attributes(), "cpu.mode")] = p.as_double();
  }
  EXPECT_EQ(by_mode, (std::map<std::string, double>{{"user", 12.5}, {"nice", 0}, {"system", 3.25}, {"idle", 60},
                                                    {"iowait", 0.5}, {"interrupt", 0.125}, {"steal", 0}}));

  const auto* count = find_metric(scope, "system.cpu.logical.count");
  ASSERT_NE(count, nullptr);
  EXPECT_EQ(count->unit(), "{cpu}");
  ASSERT_TRUE(count->has_gauge());
  ASSERT_EQ(count->gauge().data_points_size(), 1);
  EXPECT_EQ(count->gauge().data_points(0).as_int(), 8);
  EXPECT_EQ(count->gauge().data_points(0).time_unix_nano(), window.end_unix_nano);

  const auto* consumer = find_metric(scope, "tierwise.consumer.cpu.time");
  ASSERT_NE(consumer, nullptr);
  EXPECT_EQ(consumer->unit(), "s");
  ASSERT_TRUE(consumer->has_sum());
  EXPECT_TRUE(consumer->sum().is_monotonic());
  EXPECT_EQ(consumer->sum().aggregation_temporality(), otlp::metrics::v1::AGGREGATION_TEMPORALITY_DELTA);
  ASSERT_EQ(consumer->sum().data_points_size(), 2);
  for (const auto& [i, mode, seconds] : {std::tuple{0, "user", 1.5}, std::tuple{1, "system", 0.25}}) {
    const auto& p = consumer->sum().data_points(i);
    EXPECT_EQ(attribute(p.attributes(), "cpu.mode"), mode);
    EXPECT_EQ(attribute(p.attributes(), "tierwise.consumer.kind"), "process");
    EXPECT_EQ(p.attributes_size(), 2);
    EXPECT_EQ(p.as_double(), seconds);
    EXPECT_EQ(p.start_time_unix_nano(), window.start_unix_nano);
  }

  // A cgroup consumer says so.
  cpu.consumer_kind = telemetry::ConsumerKind::kCgroup;
  c.close_interval(telemetry::CacheTotals{}, cpu);
  encode_metrics({&v, 1}, window, "0.1.0", &request);
  consumer = find_metric(request.resource_metrics(0).scope_metrics(0), "tierwise.consumer.cpu.time");
  ASSERT_NE(consumer, nullptr);
  EXPECT_EQ(attribute(consumer->sum().data_points(1).attributes(), "tierwise.consumer.kind"), "cgroup");

  // No consumer (a TCP client): the host's figures only.
  cpu.consumer_kind = telemetry::ConsumerKind::kNone;
  c.close_interval(telemetry::CacheTotals{}, cpu);
  encode_metrics({&v, 1}, window, "0.1.0", &request);
  EXPECT_NE(find_metric(request.resource_metrics(0).scope_metrics(0), "system.cpu.time"), nullptr);
  EXPECT_EQ(find_metric(request.resource_metrics(0).scope_metrics(0), "tierwise.consumer.cpu.time"), nullptr);

  // Not measured (replay, import-vscsistats): none of the three.
  c.close_interval(telemetry::CacheTotals{});
  encode_metrics({&v, 1}, window, "0.1.0", &request);
  for (const char* name : {"system.cpu.time", "system.cpu.logical.count", "tierwise.consumer.cpu.time"}) {
    EXPECT_EQ(find_metric(request.resource_metrics(0).scope_metrics(0), name), nullptr) << name;
  }
}

TEST(OtlpMetricsTest, RefusesMoreThan200VolumesPerRequest) {
  const telemetry::VolumeCollector c = sample_collector();
  const VolumeResource r{"h", "v", "", "", "", ""};
  std::vector<VolumeInterval> volumes(kMaxVolumesPerRequest + 1, VolumeInterval{&r, &c.metrics()});
  ExportMetricsServiceRequest request;
  EXPECT_THROW(encode_metrics(volumes, {0, 1}, "0.1.0", &request), std::invalid_argument);
  volumes.pop_back();
  encode_metrics(volumes, {0, 1}, "0.1.0", &request);
  EXPECT_EQ(request.resource_metrics_size(), 200);
}

SenderConfig fast_config(const std::string& url) {
  SenderConfig config;
  config.ingest_url = url;
  config.token = "agent-token-123";
  config.initial_backoff = std::chrono::milliseconds(10);
  config.max_attempts = 4;
  return config;
}

Batch metrics_of_one_volume() {
  const telemetry::VolumeCollector c = sample_collector();
  const VolumeResource r{"h", "v", "", "", "", ""};
  const VolumeInterval v{&r, &c.metrics()};
  ExportMetricsServiceRequest request;
  encode_metrics({&v, 1}, {0, 10}, "0.1.0", &request);
  return metrics_batch(request, 0);
}

TEST(HttpSenderTest, PostsProtobufWithTokenAndBatchId) {
  testing::HttpReceiver receiver;
  const Batch batch = metrics_of_one_volume();
  {
    HttpSender sender(fast_config(receiver.url()));
    sender.enqueue(batch);
    sender.drain();
    const DeliveryStats s = sender.stats(0);
    EXPECT_EQ(s.sent, 1u);
    EXPECT_EQ(s.rejected, 0u);
    EXPECT_EQ(s.bytes_sent, batch.body.size());
  }
  const auto requests = receiver.requests();
  ASSERT_EQ(requests.size(), 1u);
  const auto& req = requests[0];
  EXPECT_EQ(req.method, "POST");
  EXPECT_EQ(req.path, "/v1/metrics");
  EXPECT_EQ(req.headers.at("authorization"), "Bearer agent-token-123");
  EXPECT_EQ(req.headers.at("content-type"), "application/x-protobuf");
  EXPECT_EQ(req.headers.at("x-tierwise-batch-id"), batch.batch_id);
  EXPECT_EQ(batch.batch_id.size(), 36u);
  EXPECT_EQ(req.body, batch.body);
  ExportMetricsServiceRequest decoded;
  EXPECT_TRUE(decoded.ParseFromString(req.body));
  EXPECT_EQ(decoded.resource_metrics_size(), 1);
}

TEST(HttpSenderTest, RetriesA503ThenSucceedsWithTheSameBatchId) {
  testing::HttpReceiver receiver;
  receiver.script({{503, "Service Unavailable", "kafka is down", {}}});
  HttpSender sender(fast_config(receiver.url()));
  const Batch batch = metrics_of_one_volume();
  sender.enqueue(batch);
  sender.drain();
  const DeliveryStats s = sender.stats(0);
  EXPECT_EQ(s.sent, 1u);
  EXPECT_EQ(s.retries, 1u);
  EXPECT_EQ(s.failed, 0u);
  const auto requests = receiver.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].headers.at("x-tierwise-batch-id"), requests[1].headers.at("x-tierwise-batch-id"));
  EXPECT_EQ(requests[1].body, batch.body);
}

TEST(HttpSenderTest, Honours429RetryAfter) {
  testing::HttpReceiver receiver;
  receiver.script({{429, "Too Many Requests", "", {"Retry-After: 1"}}});
  HttpSender sender(fast_config(receiver.url()));
  const auto start = std::chrono::steady_clock::now();
  sender.enqueue(metrics_of_one_volume());
  sender.drain();
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(950));
  EXPECT_EQ(sender.stats(0).sent, 1u);
  EXPECT_EQ(receiver.requests().size(), 2u);
}

TEST(RetryDelayTest, RetryAfterIsTheLeastWaitAndAgentsToldTheSameAreSpread) {
  using std::chrono::milliseconds;
  std::mt19937_64 rng(7);
  int64_t least = INT64_MAX, most = 0;
  for (int i = 0; i < 1000; ++i) {
    const int64_t d = retry_delay(milliseconds(250), milliseconds(30000), 1, 1, rng).count();
    least = std::min(least, d);
    most = std::max(most, d);
  }
  EXPECT_GE(least, 1000) << "never sooner than Retry-After";
  EXPECT_LE(most, 1500);
  EXPECT_GE(most - least, 400) << "a thousand agents told Retry-After: 1 do not come back together";
}

TEST(RetryDelayTest, BackoffKeepsDoublingWhileTheServiceAnswersRetryAfter) {
  using std::chrono::milliseconds;
  std::mt19937_64 rng(7);
  // The 7th retry: 250 ms * 2^6 = 16 s, half of it random; Retry-After 1 does not shorten it.
  for (int i = 0; i < 100; ++i) {
    const int64_t d = retry_delay(milliseconds(250), milliseconds(30000), 7, 1, rng).count();
    EXPECT_GE(d, 8000);
    EXPECT_LE(d, 16000);
  }
  EXPECT_EQ(retry_delay(milliseconds(250), milliseconds(30000), 40, 120, rng), milliseconds(30000))
      << "the backoff and Retry-After are capped at max_backoff";
  const int64_t first = retry_delay(milliseconds(250), milliseconds(30000), 1, 0, rng).count();
  EXPECT_GE(first, 125);
  EXPECT_LE(first, 250);
}

TEST(HttpSenderTest, Reports401WithoutRetrying) {
  testing::HttpReceiver receiver;
  receiver.script({{401, "Unauthorized", R"({"code":"unauthorized","message":"bad agent token"})", {}}});
  HttpSender sender(fast_config(receiver.url()));
  Batch refs{Endpoint::kRefs, "refs-body", "5b0e7a6e-0c1a-4d5e-9f00-2a1b3c4d5e6f", 3};
  sender.enqueue(refs);
  sender.drain();
  const DeliveryStats s = sender.stats(3);
  EXPECT_EQ(s.sent, 0u);
  EXPECT_EQ(s.rejected, 1u);
  EXPECT_EQ(s.retries, 0u);
  EXPECT_EQ(s.rejected_by_status.at(401), 1u);
  EXPECT_NE(s.first_problem.find("HTTP 401 Unauthorized"), std::string::npos) << s.first_problem;
  EXPECT_NE(s.first_problem.find("bad agent token"), std::string::npos) << s.first_problem;
  const auto requests = receiver.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].path, "/v1/refs");
}

TEST(HttpSenderTest, GivesUpOnAnUnreachableIngestAndCountsTheFailure) {
  std::string url;
  { testing::HttpReceiver gone; url = gone.url(); }  // a port nobody listens on any more
  SenderConfig config = fast_config(url);
  config.max_attempts = 3;
  HttpSender sender(config);
  sender.enqueue(metrics_of_one_volume());
  sender.enqueue(metrics_of_one_volume());
  sender.drain();
  const DeliveryStats s = sender.stats(0);
  EXPECT_EQ(s.sent, 0u);
  EXPECT_EQ(s.failed, 2u);
  EXPECT_EQ(s.retries, 2u) << "the second batch gets one attempt once ingest looks down";
  EXPECT_NE(s.first_problem.find("network error"), std::string::npos) << s.first_problem;
}

// The exporter of one host's volumes (shared by replay and serve): what each volume's
// requests carry, in which order and how many per request.
TEST(VolumeExporterTest, ClosedVolumesGoOutInCloseOrderAtMost200PerRequest) {
  testing::HttpReceiver receiver;
  HttpSender sender(fast_config(receiver.url()));
  const sampling::KeyedHasher hasher{sampling::TenantKey{}};
  const sampling::ShardsSampler sampler{hasher, 1.0};
  VolumeExporter exporter({.host_name = "esx-01", .cluster_name = "prod-a", .send_names = true,
                           .agent_version = "9.9.9", .stream = 2},
                          hasher, sampler, &sender);
  std::vector<VolumeExporter::Volume*> volumes;
  for (int i = 0; i < 202; ++i) volumes.push_back(&exporter.add_volume("vol" + std::to_string(i)));
  // Every volume but the last saw an I/O; they are closed last to first.
  for (int i = 0; i < 201; ++i) volumes[i]->collector.record_frontend(Direction::kRead, 4096, 3000, 1'000'000);
  for (int i = 200; i >= 0; --i) exporter.close_volume(*volumes[i], telemetry::CacheTotals{});
  EXPECT_EQ(volumes[7]->collector.metrics().operations[0][0], 1u) << "readable between close and end";
  exporter.end_interval({1'000'000'000, 11'000'000'000});
  EXPECT_FALSE(volumes[7]->collector.active()) << "collectors start the next interval";
  EXPECT_EQ(volumes[7]->collector.metrics().operations[0][0], 0u);
  EXPECT_EQ(exporter.metric_requests(), 2u);
  sender.drain();
  EXPECT_EQ(sender.stats(2).sent, 2u) << "on the exporter's stream";

  const auto requests = receiver.requests();
  ASSERT_EQ(requests.size(), 2u);
  ExportMetricsServiceRequest first, second;
  ASSERT_EQ(requests[0].path, "/v1/metrics");
  ASSERT_TRUE(first.ParseFromString(requests[0].body));
  ASSERT_TRUE(second.ParseFromString(requests[1].body));
  ASSERT_EQ(first.resource_metrics_size(), 200);
  ASSERT_EQ(second.resource_metrics_size(), 1);
  const auto& attrs = first.resource_metrics(0).resource().attributes();
  EXPECT_EQ(attribute(attrs, "host.id"), hasher.host_id("esx-01"));
  EXPECT_EQ(attribute(attrs, "tierwise.volume.id"), hasher.volume_id("vol200"));
  EXPECT_EQ(attribute(attrs, "tierwise.cluster.id"), hasher.cluster_id("prod-a"));
  EXPECT_EQ(attribute(attrs, "host.name"), "esx-01");
  EXPECT_EQ(attribute(attrs, "tierwise.volume.name"), "vol200");
  EXPECT_EQ(attribute(attrs, "service.version"), "9.9.9");
  EXPECT_EQ(attribute(second.resource_metrics(0).resource().attributes(), "tierwise.volume.id"),
            hasher.volume_id("vol0"));
  EXPECT_EQ(first.resource_metrics(0).scope_metrics(0).metrics(0).sum().data_points(0).start_time_unix_nano(),
            1'000'000'000u);
}

// Host esx-01's exporter sending (stream 1) to a loopback receiver, every block sampled (R = 1);
// in cluster `cluster` (empty: none).
struct SendingExporter {
  explicit SendingExporter(std::string cluster = "") : cluster_name(std::move(cluster)) {}
  std::string cluster_name;
  testing::HttpReceiver receiver;
  HttpSender sender{fast_config(receiver.url())};
  const sampling::KeyedHasher hasher{sampling::TenantKey{}};
  const sampling::ShardsSampler sampler{hasher, 1.0};
  VolumeExporter exporter{
      {.host_name = "esx-01", .cluster_name = cluster_name, .agent_version = "9.9.9", .stream = 1},
      hasher, sampler, &sender};
};

TEST(VolumeExporterTest, ReferenceBatchesCarryTheVolumesIdsAndNoNamesUnlessAsked) {
  SendingExporter host;
  auto& [cluster, receiver, sender, hasher, sampler, exporter] = host;
  VolumeExporter::Volume& v = exporter.add_volume("vm1");
  EXPECT_EQ(v.resource.host_name, "") << "names leave the host only with send_names";
  EXPECT_EQ(v.resource.volume_name, "");
  EXPECT_EQ(v.resource.cluster_id, "") << "no cluster";
  trace::IoRecord io;
  io.length_bytes = 8192;
  io.volume = "vm1";
  v.batcher->add(io, 1'000'000);
  exporter.flush_references();
  EXPECT_EQ(exporter.reference_batches(), 1u);
  sender.drain();
  EXPECT_EQ(sender.stats(1).sent, 1u);
  const auto requests = receiver.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].path, "/v1/refs/batches");
  tierwise::v1::ReferenceBatches request;
  ASSERT_TRUE(request.ParseFromString(requests[0].body));
  ASSERT_EQ(request.batches_size(), 1);
  const tierwise::v1::ReferenceBatch& batch = request.batches(0);
  EXPECT_EQ(batch.host_id(), hasher.host_id("esx-01"));
  EXPECT_EQ(batch.volume_id(), hasher.volume_id("vm1"));
  EXPECT_EQ(batch.references_size(), 0) << "no cluster: the references stay on the host";
  EXPECT_EQ(batch.reference_summary().references(), 2u) << "two 4 KiB blocks, both sampled at R = 1";
  ASSERT_EQ(batch.reference_summary().io_lengths_size(), 1);
  EXPECT_EQ(batch.reference_summary().io_lengths(0).length_blocks(), 2u);
  EXPECT_EQ(batch.reference_summary().io_lengths(0).references(), 2u);
  EXPECT_EQ(batch.reference_summary().first_reference_unix_nano(), 1'000'000'000u);
  EXPECT_NE(requests[0].headers.at("x-tierwise-batch-id"), batch.batch_id()) << "the request has an id of its own";
}

TEST(VolumeExporterTest, AClusteredHostsBatchesCarryTheirReferences) {
  // A cluster's tier is shared with other hosts' volumes: the service merges their references.
  SendingExporter host("prod-a");
  auto& [cluster, receiver, sender, hasher, sampler, exporter] = host;
  trace::IoRecord io;
  io.length_bytes = 8192;
  io.volume = "vm1";
  exporter.add_volume("vm1").batcher->add(io, 1'000'000);
  exporter.flush_references();
  sender.drain();
  tierwise::v1::ReferenceBatches request;
  ASSERT_TRUE(request.ParseFromString(receiver.requests().at(0).body));
  EXPECT_EQ(request.batches(0).references_size(), 2);
  EXPECT_FALSE(request.batches(0).has_reference_summary());
}

TEST(VolumeExporterTest, AVolumesWorkingSetSampleOutlivesACleanRestartAndNotACrash) {
  // flush_references() (the end of serving) saves each volume's working-set
  // windows; the next run's add_volume() continues them and removes the file,
  // so a run that crashes leaves none and the next starts a fresh sample.
  testing::TempDir dir("working-sets");
  const sampling::KeyedHasher hasher{sampling::TenantKey{}};
  const sampling::ShardsSampler sampler{hasher, 1.0};
  const VolumeExporter::Options options{
      .host_name = "esx-01", .cluster_name = "", .agent_version = "9.9.9", .working_set_dir = dir.path()};
  const std::string file = dir.path() + "/" + hasher.volume_id("vm1") + ".ws";
  const std::string host_file = dir.path() + "/host-tier.ws";
  trace::IoRecord io;
  io.length_bytes = 8192;
  io.volume = "vm1";
  std::string saved;
  {
    VolumeExporter first(options, hasher, sampler, nullptr);
    first.add_volume("vm1").batcher->add(io, 1'000'000);
    first.flush_references();
    saved = testing::read_file(file);
    ASSERT_FALSE(saved.empty());
    ASSERT_TRUE(std::filesystem::exists(host_file)) << "and the host's tier's windows";
  }
  {
    VolumeExporter second(options, hasher, sampler, nullptr);
    VolumeExporter::Volume& v = second.add_volume("vm1");
    EXPECT_FALSE(std::filesystem::exists(file)) << "taken: a crash of this run must not restore it";
    EXPECT_FALSE(std::filesystem::exists(host_file)) << "taken by the exporter's start";
    EXPECT_EQ(v.batcher->save_working_set(), saved) << "the same sample goes on";
    v.batcher->add(io, 2'000'000);
  }  // a crash: no flush_references()
  VolumeExporter third(options, hasher, sampler, nullptr);
  VolumeExporter::Volume& v = third.add_volume("vm1");
  EXPECT_NE(v.batcher->save_working_set().substr(0, 40), saved.substr(0, 40)) << "a fresh sample, with its own id";
}

TEST(VolumeExporterTest, TheHostsReferenceBatchesOfAnIntervalGoInOneRequest) {
  SendingExporter host;
  auto& [cluster, receiver, sender, hasher, sampler, exporter] = host;
  std::vector<VolumeExporter::Volume*> volumes;
  for (const char* name : {"vm1", "vm2", "vm3"}) volumes.push_back(&exporter.add_volume(name));
  trace::IoRecord io;
  io.length_bytes = 4096;
  for (size_t i = 0; i < volumes.size(); ++i) {
    io.volume = volumes[i]->name;
    io.offset_bytes = i * 4096;
    volumes[i]->batcher->add(io, 1'000'000);
  }
  exporter.flush_references_older_than(61'000'000, 60'000'000);
  sender.drain();
  EXPECT_TRUE(receiver.requests().empty()) << "flushed batches wait for the interval's close";
  exporter.end_interval({0, 10});
  sender.drain();
  const auto requests = receiver.requests();
  ASSERT_EQ(requests.size(), 1u) << "no volume closed: no metrics request, one request of reference batches";
  EXPECT_EQ(requests[0].path, "/v1/refs/batches");
  tierwise::v1::ReferenceBatches request;
  ASSERT_TRUE(request.ParseFromString(requests[0].body));
  ASSERT_EQ(request.batches_size(), 3);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(request.batches(i).volume_id(), hasher.volume_id(volumes[i]->name));
  // The host's tier's windows: one sample, each volume's batch its own reference's shares.
  for (int i = 0; i < 3; ++i) {
    const tierwise::v1::WorkingSetShares& tier = request.batches(i).host_tier_working_set();
    EXPECT_EQ(tier.sample_id(), request.batches(0).host_tier_working_set().sample_id());
    EXPECT_NE(tier.sample_id(), request.batches(i).working_set().sample_id()) << "not the volume's own sample";
    ASSERT_GE(tier.shares_size(), 1);
    EXPECT_EQ(tier.shares(0).window_seconds(), 0u);
    EXPECT_EQ(tier.shares(0).references(), 1u);
  }
  EXPECT_EQ(exporter.reference_batches(), 3u);
  exporter.end_interval({10, 20});
  sender.drain();
  EXPECT_EQ(receiver.requests().size(), 1u) << "nothing waiting: no empty request";
}

TEST(VolumeExporterTest, AReferenceRequestStaysWithinItsByteBound) {
  SendingExporter host("prod-a");  // in a cluster: the batches carry their references
  auto& [cluster, receiver, sender, hasher, sampler, exporter] = host;
  std::vector<VolumeExporter::Volume*> volumes;
  for (int n = 0; n < 40; ++n) volumes.push_back(&exporter.add_volume("vm" + std::to_string(n)));
  trace::IoRecord io;
  io.length_bytes = 4096;
  // Each volume fills one batch (10,000 distinct blocks at R = 1): 40 full batches, more than
  // kMaxReferenceRequestBytes together.
  for (VolumeExporter::Volume* v : volumes) {
    io.volume = v->name;
    for (uint64_t b = 0; b < sampling::ReferenceBatcher::kMaxReferencesPerBatch; ++b) {
      io.offset_bytes = b * 4096;
      v->batcher->add(io, 1'000'000 + static_cast<int64_t>(b));
    }
  }
  exporter.end_interval({0, 10});
  sender.drain();
  size_t batches = 0;
  const auto requests = receiver.requests();
  ASSERT_GE(requests.size(), 2u);
  for (const auto& r : requests) {
    EXPECT_LE(r.body.size(), VolumeExporter::kMaxReferenceRequestBytes);
    tierwise::v1::ReferenceBatches request;
    ASSERT_TRUE(request.ParseFromString(r.body));
    batches += static_cast<size_t>(request.batches_size());
  }
  EXPECT_EQ(batches, volumes.size());
  EXPECT_EQ(sender.stats(1).sent, requests.size());
}

TEST(VolumeExporterTest, APartialReferenceBatchLeavesOnceItIsOldEnough) {
  const sampling::KeyedHasher hasher{sampling::TenantKey{}};
  const sampling::ShardsSampler sampler{hasher, 1.0};
  VolumeExporter exporter({.host_name = "esx-01", .cluster_name = "", .agent_version = "9.9.9"}, hasher, sampler,
                          nullptr);
  VolumeExporter::Volume& quiet = exporter.add_volume("quiet");
  VolumeExporter::Volume& idle = exporter.add_volume("idle");
  trace::IoRecord io;
  io.length_bytes = 4096;
  io.volume = "quiet";
  quiet.batcher->add(io, 1'000'000);
  EXPECT_EQ(quiet.batcher->open_since_us(), 1'000'000);
  EXPECT_EQ(idle.batcher->open_since_us(), std::nullopt);
  // The first batch leaves at (1 - phase) of the age: the volume's place in a fleet started together.
  const int64_t first_age = 60'000'000 - static_cast<int64_t>(quiet.age_phase * 60'000'000);
  ASSERT_GT(first_age, 0);
  exporter.flush_references_older_than(1'000'000 + first_age - 1, 60'000'000);
  EXPECT_EQ(exporter.reference_batches(), 0u) << "a batch younger than the age waits to fill";
  exporter.flush_references_older_than(1'000'000 + first_age, 60'000'000);
  EXPECT_EQ(exporter.reference_batches(), 1u) << "the quiet volume's batch, the idle one has none";
  EXPECT_EQ(quiet.batcher->open_since_us(), std::nullopt);
  exporter.flush_references_older_than(200'000'000, 60'000'000);
  EXPECT_EQ(exporter.reference_batches(), 1u) << "nothing new: no empty batch";
  // Later batches wait the whole age.
  io.offset_bytes = 4096;
  quiet.batcher->add(io, 300'000'000);
  exporter.flush_references_older_than(359'999'999, 60'000'000);
  EXPECT_EQ(exporter.reference_batches(), 1u);
  exporter.flush_references_older_than(360'000'000, 60'000'000);
  EXPECT_EQ(exporter.reference_batches(), 2u);
}

TEST(VolumeExporterTest, VolumesStartedTogetherSendTheirFirstPartialBatchesSpreadOverTheAge) {
  const sampling::KeyedHasher hasher{sampling::TenantKey{}};
  const sampling::ShardsSampler sampler{hasher, 1.0};
  VolumeExporter exporter({.host_name = "esx-01", .cluster_name = "", .agent_version = "9.9.9"}, hasher, sampler,
                          nullptr);
  std::vector<int> per_tenth(10, 0);
  for (int n = 0; n < 2000; ++n) {
    const VolumeExporter::Volume& v = exporter.add_volume("vm" + std::to_string(n));
    ASSERT_GE(v.age_phase, 0.0);
    ASSERT_LT(v.age_phase, 1.0);
    ++per_tenth[static_cast<size_t>(v.age_phase * 10)];
  }
  // Uniform: 200 expected in each tenth (binomial sd ~13).
  for (int n : per_tenth) {
    EXPECT_GE(n, 140);
    EXPECT_LE(n, 260);
  }
}

TEST(VolumeExporterTest, WithoutASenderItCountsAndNothingLeaves) {
  const sampling::KeyedHasher hasher{sampling::TenantKey{}};
  const sampling::ShardsSampler sampler{hasher, 1.0};
  VolumeExporter exporter({.host_name = "esx-01", .cluster_name = "", .agent_version = "9.9.9"}, hasher, sampler,
                          nullptr);
  VolumeExporter::Volume& v = exporter.add_volume("vm1");
  v.collector.record_frontend(Direction::kWrite, 4096, 3000, 1'000'000);
  exporter.close_volume(v, telemetry::CacheTotals{});
  exporter.end_interval({0, 10});
  exporter.end_interval({10, 20});  // nothing closed: no request
  EXPECT_EQ(exporter.metric_requests(), 1u);
}

}  // namespace
}  // namespace tierwise::exporter
