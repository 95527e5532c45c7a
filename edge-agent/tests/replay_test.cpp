// Replay end to end: real traces through the engine, exported to a real HTTP
// receiver on 127.0.0.1, with the exit codes and summaries a user sees.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "export/otlp_metrics.hpp"
#include "export_http_receiver.hpp"
#include "replay/replay.hpp"
#include "sampling/keyed_hash.hpp"
#include "sampling/tenant_key.hpp"
#include "test_support.hpp"
#include "tierwise/v1/reference_batch.pb.h"
#include "trace/trace_reader.hpp"

namespace tierwise::replay {
namespace {

namespace fs = std::filesystem;

class ReplayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tierwise-replay-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    options_.key_file = (dir_ / "agent.key").string();
    options_.json_summary = (dir_ / "summary.json").string();
    options_.host_name = "esx-test-01";
  }
  void TearDown() override { fs::remove_all(dir_); }

  nlohmann::json summary() const {
    std::ifstream in(options_.json_summary);
    return nlohmann::json::parse(in);
  }

  fs::path dir_;
  ReplayOptions options_;
};

TEST_F(ReplayTest, ExportsMetricsAndReferencesOfTheMsrTrace) {
  testing::HttpReceiver ingest;
  options_.traces = {testing::trace_path("msr_hm_0_sample1000.csv")};
  options_.ingest_url = ingest.url();
  options_.token = "agent-token";
  options_.sample_rate = 1.0;  // every block: the reference count is known
  options_.send_names = true;
  const int64_t start_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                               std::chrono::system_clock::now().time_since_epoch()).count();

  ASSERT_EQ(run_replay(options_), kExitOk);

  const nlohmann::json s = summary()["traces"][0];
  EXPECT_EQ(s["records"], 1000);
  EXPECT_EQ(s["malformed"], 0);
  EXPECT_EQ(s["volumes"], 1);
  EXPECT_EQ(s["reads"], 508);
  EXPECT_EQ(s["writes"], 492);
  EXPECT_EQ(s["batches_rejected"], 0);
  EXPECT_GT(s["hits"].get<uint64_t>() + s["misses"].get<uint64_t>(), 1000u);

  const sampling::KeyedHasher hasher(sampling::load_or_create_key_file(options_.key_file));
  uint64_t metrics_requests = 0, refs_requests = 0, frontend_ops = 0, references = 0;
  std::set<std::string> batch_ids;
  for (const auto& req : ingest.requests()) {
    EXPECT_EQ(req.headers.at("authorization"), "Bearer agent-token");
    batch_ids.insert(req.headers.at("x-tierwise-batch-id"));
    if (req.path == "/v1/metrics") {
      ++metrics_requests;
      exporter::ExportMetricsServiceRequest m;
      ASSERT_TRUE(m.ParseFromString(req.body));
      ASSERT_EQ(m.resource_metrics_size(), 1);
      const auto& rm = m.resource_metrics(0);
      std::map<std::string, std::string> attrs;
      for (const auto& kv : rm.resource().attributes()) attrs[kv.key()] = kv.value().string_value();
      EXPECT_EQ(attrs["host.id"], hasher.host_id("esx-test-01"));
      EXPECT_EQ(attrs["host.name"], "esx-test-01");
      EXPECT_EQ(attrs["tierwise.volume.id"], hasher.volume_id(attrs["tierwise.volume.name"]));
      for (const auto& metric : rm.scope_metrics(0).metrics()) {
        if (metric.name() != "tierwise.io.operations") continue;
        for (const auto& p : metric.sum().data_points()) {
          // Rebased trace time: recent, and in the past.
          EXPECT_LE(p.time_unix_nano(), static_cast<uint64_t>(start_ns));
          EXPECT_GT(p.start_time_unix_nano(), static_cast<uint64_t>(start_ns) - 200'000'000'000ull);
          EXPECT_EQ(p.time_unix_nano() - p.start_time_unix_nano(), 10'000'000'000ull);
          for (const auto& kv : p.attributes()) {
            if (kv.key() == "io.source" && kv.value().string_value() == "frontend") frontend_ops += p.as_int();
          }
        }
      }
    } else {
      ASSERT_EQ(req.path, "/v1/refs/batches");
      ++refs_requests;
      tierwise::v1::ReferenceBatches request;
      ASSERT_TRUE(request.ParseFromString(req.body));
      ASSERT_GE(request.batches_size(), 1);
      for (const auto& batch : request.batches()) {
        EXPECT_EQ(batch.host_id(), hasher.host_id("esx-test-01"));
        EXPECT_EQ(batch.sampling_threshold(), batch.sampling_modulus());  // rate 1
        EXPECT_EQ(batch.references_size(), 0) << "no cluster: summarised";
        references += batch.reference_summary().references();
      }
    }
  }
  // 127 s of trace in 10 s intervals.
  EXPECT_GE(metrics_requests, 13u);
  EXPECT_LE(metrics_requests, 14u);
  EXPECT_EQ(s["intervals"], metrics_requests);
  EXPECT_EQ(frontend_ops, 1000u);
  EXPECT_GE(refs_requests, 1u);
  EXPECT_EQ(references, s["references"].get<uint64_t>());
  EXPECT_EQ(s["batches_sent"], metrics_requests + refs_requests);
  EXPECT_EQ(batch_ids.size(), metrics_requests + refs_requests) << "batch ids must be unique";
}

TEST_F(ReplayTest, TheTracesAndRunsOfOneHostGoOnWithItsTiersWorkingSetSample) {
  // One agent per host: the second trace, and the next run, add to the host's
  // tier's sample (one sample id), kept in working-sets/ beside the spool.
  testing::HttpReceiver ingest;
  options_.traces = {testing::trace_path("msr_hm_0_sample1000.csv"), testing::trace_path("msr_hm_0_sample1000.csv")};
  options_.ingest_url = ingest.url();
  options_.token = "agent-token";
  ASSERT_EQ(run_replay(options_), kExitOk);
  options_.traces.resize(1);
  ASSERT_EQ(run_replay(options_), kExitOk);
  std::set<uint64_t> host_samples;
  size_t batches = 0;
  for (const auto& req : ingest.requests()) {
    if (req.path != "/v1/refs/batches") continue;
    tierwise::v1::ReferenceBatches request;
    ASSERT_TRUE(request.ParseFromString(req.body));
    for (const auto& batch : request.batches()) {
      ASSERT_TRUE(batch.has_host_tier_working_set());
      host_samples.insert(batch.host_tier_working_set().sample_id());
      ++batches;
    }
  }
  EXPECT_GE(batches, 3u);
  EXPECT_EQ(host_samples.size(), 1u);
  EXPECT_TRUE(fs::exists(dir_ / "working-sets" / "host-tier.ws"));
}

TEST_F(ReplayTest, ABadTokenEndsWithExitCode4AndNamesTheStatus) {
  testing::HttpReceiver ingest;
  std::vector<testing::ScriptedResponse> refusals(
      64, {401, "Unauthorized", R"({"code":"unauthorized","message":"unknown agent token"})", {}});
  ingest.script(refusals);
  options_.traces = {testing::trace_path("msr_hm_0_sample1000.csv")};
  options_.ingest_url = ingest.url();
  options_.token = "wrong";
  options_.interval_us = 60'000'000;

  EXPECT_EQ(run_replay(options_), kExitRejected);
  const nlohmann::json s = summary()["traces"][0];
  EXPECT_EQ(s["records"], 1000) << "the replay itself completes";
  EXPECT_EQ(s["batches_sent"], 0);
  EXPECT_EQ(s["batches_rejected"], ingest.requests().size());
  EXPECT_NE(s["export_problem"].get<std::string>().find("HTTP 401 Unauthorized"), std::string::npos);
  EXPECT_EQ(summary()["exit_code"], kExitRejected);
}

TEST_F(ReplayTest, MalformedRecordsAreSkippedWithExitCode3) {
  const std::string trace = (dir_ / "msr_with_garbage.csv").string();
  {
    std::ifstream in(testing::trace_path("msr_hm_0_sample1000.csv"));
    std::ofstream out(trace);
    std::string line;
    for (int i = 0; i < 50 && std::getline(in, line); ++i) {
      out << line << "\n";
      if (i == 20) out << "128166372003061629,hm,0,Read,not-an-offset,4096,100\n";
    }
  }
  options_.traces = {trace};
  options_.dry_run = true;
  EXPECT_EQ(run_replay(options_), kExitMalformed);
  const nlohmann::json s = summary()["traces"][0];
  EXPECT_EQ(s["malformed"], 1);
  EXPECT_EQ(s["records"], 50);
  EXPECT_EQ(summary()["exported"], false);
}

TEST_F(ReplayTest, EveryTencentVolumeGetsItsOwnSparseDatastoreFile) {
  // The first 3,000 records of the Tencent CBS sample (hundreds of volumes),
  // written back in the Tencent CSV format to keep the test short.
  const std::string trace = (dir_ / "tencent_head.csv").string();
  std::set<std::string> volumes;
  uint64_t reads = 0;
  {
    auto reader = trace::open_trace(testing::trace_path("tencent_cbs_sample50k.csv.bz2"));
    std::ofstream out(trace);
    trace::IoRecord r;
    for (int i = 0; i < 3000 && reader->next(r); ++i) {
      ASSERT_EQ(r.volume.rfind("cbs-", 0), 0u);
      volumes.insert(r.volume);
      reads += r.direction == trace::Direction::kRead;
      out << r.time_us / 1'000'000 << ',' << r.offset_bytes / 512 << ',' << r.length_bytes / 512
          << ',' << (r.direction == trace::Direction::kRead ? 0 : 1) << ',' << r.volume.substr(4)
          << '\n';
    }
  }
  options_.traces = {trace};
  options_.format = trace::TraceFormat::kTencentCsv;
  options_.dry_run = true;
  options_.datastore_dir = (dir_ / "datastore").string();
  ASSERT_EQ(run_replay(options_), kExitOk);
  const nlohmann::json s = summary()["traces"][0];
  EXPECT_EQ(s["records"], 3000);
  EXPECT_EQ(s["volumes"], volumes.size());
  EXPECT_GT(volumes.size(), 100u);
  EXPECT_EQ(s["reads"], reads);

  const sampling::KeyedHasher hasher(sampling::load_or_create_key_file(options_.key_file));
  uint64_t apparent = 0, allocated = 0;
  for (const std::string& v : volumes) {
    struct stat st {};
    const fs::path file = fs::path(options_.datastore_dir) / (hasher.volume_id(v) + ".img");
    ASSERT_EQ(::stat(file.c_str(), &st), 0) << "no datastore file for " << v;
    apparent += static_cast<uint64_t>(st.st_size);
    allocated += static_cast<uint64_t>(st.st_blocks) * 512;
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(options_.datastore_dir), fs::directory_iterator()),
            static_cast<long>(volumes.size()));
  // Only written ranges take space: far less than the volumes' apparent sizes.
  EXPECT_LT(allocated * 100, apparent) << "datastore files should be sparse";
}

TEST_F(ReplayTest, AnUnknownTraceFileIsReportedAndTheOthersStillReplay) {
  const std::string bogus = (dir_ / "not-a-trace.csv").string();
  std::ofstream(bogus) << "this is not,a block trace\n";
  options_.traces = {bogus, testing::trace_path("systor17_lun0_sample_a.csv.gz")};
  options_.dry_run = true;
  EXPECT_EQ(run_replay(options_), kExitUsage);
  const nlohmann::json t = summary()["traces"];
  EXPECT_TRUE(t[0].contains("error"));
  EXPECT_EQ(t[1]["records"], 999);
}

}  // namespace
}  // namespace tierwise::replay
