// Policy pull on the agent side: the document and report JSON, the live
// application to a cache engine, and the client against a local HTTP server.
#include <gtest/gtest.h>
#include <sys/poll.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "blockdev/ram_device.hpp"
#include "export_http_receiver.hpp"
#include "policy/policy_apply.hpp"
#include "policy/policy_client.hpp"
#include "policy/policy_document.hpp"

namespace tierwise::policy {
namespace {

const char* kDocument = R"({"etag": "\"abc\"", "policies": [
  {"volume_id": "00112233aabbccdd", "version": 3, "mode": "write-back", "write_back_copies": 1,
   "tier_bytes": 1073741824, "media": "nvme", "eviction": "s3-fifo"},
  {"volume_id": "ffeeddcc00000000", "version": 1, "mode": "write-through", "write_back_copies": null,
   "tier_bytes": 8192, "media": "ram", "eviction": "lru"}]})";

TEST(PolicyDocument, ParsesEveryField) {
  const PolicyDocument doc = parse_policy_document(kDocument);
  EXPECT_EQ(doc.etag, "\"abc\"");
  ASSERT_EQ(doc.policies.size(), 2u);
  const VolumePolicy& wb = doc.policies[0];
  EXPECT_EQ(wb.volume_id, "00112233aabbccdd");
  EXPECT_EQ(wb.version, 3);
  EXPECT_TRUE(wb.write_back);
  EXPECT_EQ(wb.write_back_copies, 1u);
  EXPECT_EQ(wb.tier_bytes, 1ull << 30);
  EXPECT_FALSE(wb.ram);
  EXPECT_EQ(wb.eviction, cache::eviction::PolicyKind::kS3Fifo);
  EXPECT_FALSE(doc.policies[1].write_back);
  EXPECT_EQ(describe(wb), "WB+1, NVMe tier 1024 MiB, s3fifo (version 3)");
}

TEST(PolicyDocument, RejectsMalformedDocumentsNamingTheField) {
  EXPECT_THROW(parse_policy_document("{"), std::invalid_argument);
  const std::string bad_mode = R"({"etag":"x","policies":[{"volume_id":"aa","version":1,"mode":"fast",
    "tier_bytes":4096,"media":"ram","eviction":"lru"}]})";
  try {
    parse_policy_document(bad_mode);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unknown mode \"fast\""), std::string::npos) << e.what();
  }
  const std::string odd_size = R"({"etag":"x","policies":[{"volume_id":"aa","version":1,"mode":"write-through",
    "tier_bytes":5000,"media":"ram","eviction":"lru"}]})";
  EXPECT_THROW(parse_policy_document(odd_size), std::invalid_argument);
}

TEST(PolicyDocument, EncodesAppliedReports) {
  const auto body = nlohmann::json::parse(encode_applied_reports(
      {{"aa00", 2, 1'700'000'000'123'456, ""}, {"bb00", 5, 1'700'000'001'000'000, "tier too large"}}));
  ASSERT_EQ(body["reports"].size(), 2u);
  EXPECT_EQ(body["reports"][0]["applied_at"], "2023-11-14T22:13:20.123Z");
  EXPECT_TRUE(body["reports"][0]["error"].is_null());
  EXPECT_EQ(body["reports"][1]["version"], 5);
  EXPECT_EQ(body["reports"][1]["error"], "tier too large");
}

class ApplyPolicy : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(blockdev::RamDevice::create(1 << 20, &datastore_), 0);
    ASSERT_EQ(blockdev::RamDevice::create(128 * 4096, &tier_), 0);
    cache::EvictionOptions eviction;
    eviction.policy = cache::eviction::PolicyKind::kLru;
    ASSERT_EQ(cache::CacheEngine::create(*datastore_, *tier_, 64 * 4096, eviction, &engine_), 0);
    shape_.tier_device_bytes = 128 * 4096;
  }
  VolumePolicy policy(bool write_back, uint64_t tier_bytes) const {
    VolumePolicy p;
    p.volume_id = "aa";
    p.version = 1;
    p.write_back = write_back;
    p.tier_bytes = tier_bytes;
    return p;
  }
  // Reads `blocks` 4 KiB blocks from 0 through the engine (the RAM devices complete at once).
  void read_blocks(uint64_t blocks) {
    auto buf = blockdev::allocate_aligned(4096, 4096);
    for (uint64_t b = 0; b < blocks; ++b) {
      ASSERT_EQ(engine_->submit(trace::Direction::kRead, b * 4096, 4096, buf.get(), [](void*, const cache::IoOutcome&) {}, nullptr), 0);
    }
  }
  std::unique_ptr<blockdev::RamDevice> datastore_, tier_;
  std::unique_ptr<cache::CacheEngine> engine_;
  VolumeShape shape_;
};

TEST_F(ApplyPolicy, MatchingWriteThroughPolicyAppliesWithoutProblemsOrChanges) {
  const ApplyOutcome out = apply_policy(policy(false, 64 * 4096), shape_, *engine_);
  EXPECT_EQ(out.problems, "");
  EXPECT_EQ(out.changes, "");
  EXPECT_EQ(engine_->mode(), cache::CacheMode::kWriteThrough);
}

TEST_F(ApplyPolicy, TierSizeAndEvictionChangeLive) {
  read_blocks(64);
  VolumePolicy p = policy(false, 128 * 4096);
  p.eviction = cache::eviction::PolicyKind::kS3Fifo;
  ApplyOutcome out = apply_policy(p, shape_, *engine_);
  EXPECT_EQ(out.problems, "");
  EXPECT_EQ(out.changes, "tier 0.25 MiB -> 0.50 MiB; eviction lru -> s3fifo");
  EXPECT_EQ(engine_->counters().capacity_bytes, 128u * 4096);
  EXPECT_EQ(engine_->index().policy().kind(), cache::eviction::PolicyKind::kS3Fifo);
  read_blocks(128);
  EXPECT_EQ(engine_->counters().occupancy_bytes, 128u * 4096) << "the grown tier is used";
  out = apply_policy(policy(false, 32 * 4096), shape_, *engine_);  // back to lru, a quarter of it
  EXPECT_EQ(out.problems, "");
  EXPECT_EQ(out.changes, "tier 0.50 MiB -> 0.12 MiB (evicted 0.38 MiB); eviction s3fifo -> lru");
  EXPECT_EQ(engine_->counters().occupancy_bytes, 32u * 4096);
}

TEST_F(ApplyPolicy, ReportsWhatTheVolumeCannotDo) {
  VolumePolicy p = policy(true, 256 * 4096);
  p.ram = false;
  p.eviction = cache::eviction::PolicyKind::kArc;
  const ApplyOutcome out = apply_policy(p, shape_, *engine_);
  EXPECT_NE(out.problems.find("write-back needs a volume opened with a journal"), std::string::npos) << out.problems;
  EXPECT_NE(out.problems.find("tier size 1 MiB is larger than the configured tier device (0.50 MiB); the tier holds 0.25 MiB"),
            std::string::npos) << out.problems;
  EXPECT_NE(out.problems.find("media nvme differs"), std::string::npos) << out.problems;
  EXPECT_EQ(out.problems.find("eviction"), std::string::npos) << "eviction applies live: " << out.problems;
  EXPECT_EQ(out.changes, "eviction lru -> arc");
  EXPECT_EQ(engine_->mode(), cache::CacheMode::kWriteThrough);
  EXPECT_EQ(engine_->counters().capacity_bytes, 64u * 4096);
}

TEST(PolicyClient, PullsTakesAndReportsApplied) {
  testing::HttpReceiver server;
  // The document, then "no change"; afterwards the receiver answers 200 with no body (a
  // malformed document for a poll: the client backs off; fine for the report's POST).
  server.script({{200, "OK", kDocument, {"ETag: \"abc\""}}, {304, "Not Modified", "", {}}});
  PolicyClientConfig config;
  config.service_url = server.url();
  config.token = "agent-token";
  config.volume_ids = {"00112233aabbccdd", "ffeeddcc00000000"};
  config.wait_seconds = 1;
  PolicyClient client(config);
  pollfd pfd{client.wake_fd(), POLLIN, 0};
  ASSERT_EQ(::poll(&pfd, 1, 10'000), 1) << "no policy document within 10 s";
  const std::vector<VolumePolicy> taken = client.take();
  ASSERT_EQ(taken.size(), 2u);
  // Report once the second poll (If-None-Match) was answered, so the POST gets a 200.
  for (int i = 0; i < 100 && server.requests().size() < 2; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  client.report({{taken[0].volume_id, taken[0].version, 1'700'000'000'000'000, ""}});
  for (int i = 0; i < 100 && client.reports_posted() == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  client.stop();
  EXPECT_EQ(client.reports_posted(), 1u);
  std::vector<testing::ReceivedRequest> gets, posts;
  for (const auto& r : server.requests()) (r.method == "GET" ? gets : posts).push_back(r);
  ASSERT_GE(gets.size(), 2u);
  EXPECT_EQ(gets[0].path, "/v1/agent/policies?volumes=00112233aabbccdd,ffeeddcc00000000");
  EXPECT_EQ(gets[0].headers.at("authorization"), "Bearer agent-token");
  EXPECT_EQ(gets[0].headers.count("if-none-match"), 0u);
  EXPECT_EQ(gets[1].headers.at("if-none-match"), "\"abc\"");
  EXPECT_EQ(gets[1].headers.at("prefer"), "wait=1");
  ASSERT_EQ(posts.size(), 1u);
  EXPECT_EQ(posts[0].path, "/v1/agent/policies/applied");
  EXPECT_EQ(nlohmann::json::parse(posts[0].body)["reports"][0]["version"], 3);
}

}  // namespace
}  // namespace tierwise::policy
