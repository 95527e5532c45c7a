// The vscsiStats families of a replay (proto/METRICS.md
// `tierwise.io.seek_distance`, `.closest`, `tierwise.io.outstanding`,
// `tierwise.io.interarrival`) against a reference computed here from the
// trace: every real trace goes through run_replay, exporting to a real HTTP
// receiver on 127.0.0.1, and the OTLP requests' bucket counts, summed over
// every interval, must equal the reference's bucket for bucket.
//
// The reference is written from the contract alone: a plain loop over the
// trace's records in file order (the order the reader returns and the replay
// issues them), each value binned by a linear scan of the bounds as METRICS.md
// lists them, the closest of the last 16 commands by a scan of the history,
// and the I/Os in flight by counting the earlier records whose completion
// (issue time plus the trace's response time) is after this one's issue time.
// Issue time is the volume's trace clock: the timestamps in file order, never
// going back (the SYSTOR files are not time-sorted).
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "export/otlp_metrics.hpp"
#include "export_http_receiver.hpp"
#include "replay/replay.hpp"
#include "test_support.hpp"
#include "trace/trace_reader.hpp"

namespace tierwise::replay {
namespace {

namespace fs = std::filesystem;

// The bounds as proto/METRICS.md lists them, typed in again.
const std::vector<int64_t> kSeek = {-500000, -100000, -50000, -10000, -5000, -1000, -500, -128, -64,
                                    -32,     -16,     -8,     -6,     -4,    -2,    -1,   0,    1,
                                    2,       4,       6,      8,      16,    32,    64,   128,  500,
                                    1000,    5000,    10000,  50000,  100000, 500000};
const std::vector<int64_t> kOutstanding = {1, 2, 4, 6, 8, 12, 16, 20, 24, 28, 32, 64};
const std::vector<int64_t> kInterarrivalUs = {1, 10, 100, 500, 1000, 5000, 15000, 30000, 50000, 100000};

// The first bucket whose bound is >= value, or the one after the last bound.
size_t linear_bucket(const std::vector<int64_t>& bounds, int64_t value) {
  for (size_t i = 0; i < bounds.size(); ++i) {
    if (value <= bounds[i]) return i;
  }
  return bounds.size();
}

// Bucket counts by "metric/direction", e.g. "tierwise.io.seek_distance/read".
using Families = std::map<std::string, std::vector<uint64_t>>;

void count(Families& f, const std::string& metric, const std::string& direction,
           const std::vector<int64_t>& bounds, int64_t value) {
  std::vector<uint64_t>& buckets = f[metric + "/" + direction];
  buckets.resize(bounds.size() + 1);
  ++buckets[linear_bucket(bounds, value)];
}

Families reference(const std::string& path) {
  struct Command {
    bool read;
    int64_t last_sector;
    int64_t issued_us;
    int64_t completes_us;  // -1: no response time in the trace
  };
  std::map<std::string, std::vector<Command>> history;  // per volume, in issue order
  Families f;
  auto reader = trace::open_trace(path);
  trace::IoRecord r;
  while (reader->next(r)) {
    std::vector<Command>& before = history[r.volume];
    const bool read = r.direction == trace::Direction::kRead;
    const std::string direction = read ? "read" : "write";
    const auto first = static_cast<int64_t>(r.offset_bytes / 512);
    const auto last = static_cast<int64_t>((r.offset_bytes + r.length_bytes + 511) / 512 - 1);
    const int64_t issued = before.empty() ? r.time_us : std::max(r.time_us, before.back().issued_us);

    if (!before.empty()) {
      const Command& previous = before.back();
      count(f, "tierwise.io.seek_distance", "all", kSeek, first - previous.last_sector);
      count(f, "tierwise.io.interarrival", "all", kInterarrivalUs, issued - previous.issued_us);
      int64_t closest = 0;
      bool found = false;
      for (size_t back = 1; back <= 16 && back <= before.size(); ++back) {
        const int64_t distance = first - before[before.size() - back].last_sector;
        if (!found || std::llabs(distance) < std::llabs(closest) ||
            (std::llabs(distance) == std::llabs(closest) && distance > closest)) {
          closest = distance;
          found = true;
        }
      }
      count(f, "tierwise.io.seek_distance.closest", "all", kSeek, closest);
    }
    for (size_t i = before.size(); i-- > 0;) {
      if (before[i].read != read) continue;
      count(f, "tierwise.io.seek_distance", direction, kSeek, first - before[i].last_sector);
      count(f, "tierwise.io.interarrival", direction, kInterarrivalUs, issued - before[i].issued_us);
      break;
    }
    if (r.response_time_us >= 0) {
      int64_t all = 1, same = 1;
      for (const Command& c : before) {
        if (c.completes_us > issued) {
          ++all;
          if (c.read == read) ++same;
        }
      }
      count(f, "tierwise.io.outstanding", "all", kOutstanding, all);
      count(f, "tierwise.io.outstanding", direction, kOutstanding, same);
    }
    before.push_back({read, last, issued, r.response_time_us >= 0 ? issued + r.response_time_us : -1});
  }
  return f;
}

std::string attribute(const google::protobuf::RepeatedPtrField<opentelemetry::proto::common::v1::KeyValue>& attrs,
                      const std::string& key) {
  for (const auto& kv : attrs) {
    if (kv.key() == key) return kv.value().string_value();
  }
  return "<absent>";
}

const std::map<std::string, const std::vector<int64_t>*> kFamilies = {
    {"tierwise.io.seek_distance", &kSeek},
    {"tierwise.io.seek_distance.closest", &kSeek},
    {"tierwise.io.outstanding", &kOutstanding},
    {"tierwise.io.interarrival", &kInterarrivalUs}};

class VscsiReplayTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tierwise-vscsi-replay-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The replay's vscsiStats points, every interval's added up; checks each
  // point's shape on the way (the contract's bounds, one count more, no sum
  // on seek distances, the counts adding up to `count`).
  Families replayed(const std::string& path) {
    testing::HttpReceiver ingest;
    ReplayOptions options;
    options.traces = {path};
    options.ingest_url = ingest.url();
    options.token = "agent-token";
    options.key_file = (dir_ / "agent.key").string();
    options.host_name = "esx-test-01";
    options.datastore_dir = (dir_ / "datastore").string();
    options.spool_dir = (dir_ / "spool").string();
    EXPECT_EQ(run_replay(options), kExitOk);
    Families f;
    for (const auto& req : ingest.requests()) {
      if (req.path != "/v1/metrics") continue;
      exporter::ExportMetricsServiceRequest m;
      EXPECT_TRUE(m.ParseFromString(req.body));
      for (const auto& rm : m.resource_metrics()) {
        for (const auto& metric : rm.scope_metrics(0).metrics()) {
          const auto family = kFamilies.find(metric.name());
          if (family == kFamilies.end()) continue;
          const std::vector<int64_t>& bounds = *family->second;
          for (const auto& p : metric.histogram().data_points()) {
            EXPECT_EQ(p.explicit_bounds_size(), static_cast<int>(bounds.size())) << metric.name();
            for (int i = 0; i < p.explicit_bounds_size() && i < static_cast<int>(bounds.size()); ++i) {
              EXPECT_EQ(p.explicit_bounds(i), static_cast<double>(bounds[i])) << metric.name();
            }
            EXPECT_EQ(p.bucket_counts_size(), p.explicit_bounds_size() + 1) << metric.name();
            EXPECT_EQ(p.has_sum(), metric.name().rfind("tierwise.io.seek_distance", 0) != 0) << metric.name();
            std::vector<uint64_t>& sum = f[metric.name() + "/" + attribute(p.attributes(), "io.direction")];
            sum.resize(bounds.size() + 1);
            uint64_t total = 0;
            for (int i = 0; i < p.bucket_counts_size() && i < static_cast<int>(sum.size()); ++i) {
              sum[static_cast<size_t>(i)] += p.bucket_counts(i);
              total += p.bucket_counts(i);
            }
            EXPECT_EQ(total, p.count()) << metric.name();
          }
        }
      }
    }
    return f;
  }

  fs::path dir_;
};

uint64_t total(const std::vector<uint64_t>& buckets) {
  uint64_t n = 0;
  for (const uint64_t c : buckets) n += c;
  return n;
}

TEST_P(VscsiReplayTest, EveryBucketEqualsTheReference) {
  const std::string path = testing::trace_path(GetParam());
  const Families want = reference(path);
  const Families got = replayed(path);
  std::vector<std::string> keys;
  for (const auto& [key, buckets] : want) keys.push_back(key);
  for (const auto& [key, buckets] : got) {
    if (!want.contains(key)) keys.push_back(key);
  }
  for (const std::string& key : keys) {
    const auto w = want.find(key);
    const auto g = got.find(key);
    ASSERT_TRUE(w != want.end()) << key << " exported, not in the reference";
    ASSERT_TRUE(g != got.end()) << key << " in the reference, not exported";
    EXPECT_EQ(g->second, w->second) << key;
    // The figures a pipeline test can check against (bucket "1" of the seek
    // distances is the sequential one).
    std::printf("%s %s: total %llu; buckets", GetParam(), key.c_str(),
                static_cast<unsigned long long>(total(w->second)));
    for (const uint64_t c : w->second) std::printf(" %llu", static_cast<unsigned long long>(c));
    std::printf("\n");
  }
}

// The reference itself on the CloudPhysics trace (113,872 records: 46,974
// reads, 66,898 writes; shared/traces/README.md): its vscsi v1 records carry
// no response time, so no outstanding points; the volume's first command (of
// each direction) counts in neither seek nor interarrival; some commands are
// sequential (bucket "1").
TEST(VscsiReference, CloudPhysicsHasNoOutstandingAndAllButTheFirstCommandCount) {
  const Families want = reference(testing::trace_path("cloudphysics_w_sample.vscsi"));
  EXPECT_FALSE(want.contains("tierwise.io.outstanding/all"));
  EXPECT_EQ(total(want.at("tierwise.io.seek_distance/all")), 113'871u);
  EXPECT_EQ(total(want.at("tierwise.io.seek_distance/read")), 46'973u);
  EXPECT_EQ(total(want.at("tierwise.io.seek_distance/write")), 66'897u);
  EXPECT_EQ(total(want.at("tierwise.io.seek_distance.closest/all")), 113'871u);
  EXPECT_EQ(total(want.at("tierwise.io.interarrival/all")), 113'871u);
  EXPECT_GT(want.at("tierwise.io.seek_distance/all")[linear_bucket(kSeek, 1)], 0u);
}

// CloudPhysics: no response times, one volume; MSR Cambridge: response times,
// time-sorted; SYSTOR '17: response times, not time-sorted.
INSTANTIATE_TEST_SUITE_P(RealTraces, VscsiReplayTest,
                         ::testing::Values("cloudphysics_w_sample.vscsi", "msr_hm_0_sample1000.csv",
                                           "systor17_lun0_sample_a.csv.gz", "systor17_lun0_sample_b.csv.gz"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;
                           name = name.substr(0, name.find('.'));
                           return name;
                         });

}  // namespace
}  // namespace tierwise::replay
