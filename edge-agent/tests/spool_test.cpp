// Disk spool: batches ingest cannot take are kept on disk and sent later, in
// order, exactly once (a real HTTP receiver on 127.0.0.1 that is down, then up).
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "export/http_sender.hpp"
#include "export/spool.hpp"
#include "export_http_receiver.hpp"

namespace tierwise::exporter {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

class SpoolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tierwise-spool-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  SenderConfig config(const std::string& url) const {
    SenderConfig c;
    c.ingest_url = url;
    c.token = "agent-token-123";
    c.max_attempts = 2;
    c.initial_backoff = milliseconds(10);
    c.max_backoff = milliseconds(40);
    c.spool_dir = dir_.string();
    return c;
  }

  // Batch number n: body "body-n", id "id-n" (zero-padded: ids sort like n).
  static Batch batch(int n, Endpoint endpoint = Endpoint::kMetrics) {
    char id[16];
    std::snprintf(id, sizeof id, "id-%04d", n);
    return Batch{endpoint, "body-" + std::to_string(n), id, 0};
  }

  static std::vector<std::string> ids_of(const std::vector<testing::ReceivedRequest>& requests) {
    std::vector<std::string> ids;
    for (const auto& r : requests) ids.push_back(r.headers.at("x-tierwise-batch-id"));
    return ids;
  }

  static std::vector<std::string> ids(int first, int last) {
    std::vector<std::string> out;
    for (int n = first; n <= last; ++n) out.push_back(batch(n).batch_id);
    return out;
  }

  size_t files_in_spool() const {
    return static_cast<size_t>(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()));
  }

  fs::path dir_;
};

TEST_F(SpoolTest, IngestDownThenUpEveryBatchArrivesOnceInOrder) {
  uint16_t port = 0;
  { testing::HttpReceiver probe; port = static_cast<uint16_t>(std::stoi(probe.url().substr(17))); }
  const std::string url = "http://127.0.0.1:" + std::to_string(port);  // nobody listens yet
  HttpSender sender(config(url));
  for (int n = 1; n <= 20; ++n) sender.enqueue(batch(n, n % 2 ? Endpoint::kMetrics : Endpoint::kRefs));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (sender.spool_stats().spooled < 20 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(milliseconds(5));
  }
  ASSERT_EQ(sender.spool_stats().spooled, 20u) << "ingest down: every batch goes to the spool";
  EXPECT_EQ(files_in_spool(), 20u);
  EXPECT_FALSE(sender.drain_for(milliseconds(100))) << "nothing can be delivered while ingest is down";

  testing::HttpReceiver ingest(port);  // ingest is back
  for (int n = 21; n <= 30; ++n) sender.enqueue(batch(n));
  ASSERT_TRUE(sender.drain_for(std::chrono::seconds(10)));
  EXPECT_EQ(ids_of(ingest.requests()), ids(1, 30)) << "each batch once, in enqueue order";
  EXPECT_EQ(ingest.requests()[1].path, "/v1/refs");
  EXPECT_EQ(ingest.requests()[1].body, "body-2");
  const SpoolStats s = sender.spool_stats();
  EXPECT_EQ(s.sent_from_spool, s.spooled);
  EXPECT_EQ(s.sent_from_spool + sender.stats(0).sent, 30u);
  EXPECT_EQ(sender.stats(0).failed, 0u);
  EXPECT_EQ(s.left, 0u);
  EXPECT_EQ(s.dropped, 0u);
  EXPECT_EQ(files_in_spool(), 0u);
}

TEST_F(SpoolTest, TheBoundDropsTheOldestBatchesAndCountsThem) {
  const Batch one = batch(1);
  // Header "tierwise-spool-v1\n/v1/metrics\nid-0001\n" (38 bytes) + "body-1" (6 bytes).
  const uint64_t file_bytes = 38 + one.body.size();
  Spool spool(dir_.string(), 3 * file_bytes);
  uint64_t dropped = 0;
  for (int n = 1; n <= 5; ++n) dropped += spool.push(batch(n));
  EXPECT_EQ(dropped, 2u);
  EXPECT_EQ(spool.dropped(), 2u);
  EXPECT_EQ(spool.size(), 3u);
  EXPECT_EQ(spool.bytes(), 3 * file_bytes);
  EXPECT_EQ(spool.front().batch_id, "id-0003") << "batches 1 and 2, the oldest, were dropped";
  EXPECT_EQ(files_in_spool(), 3u);

  Batch huge = batch(6);
  huge.body.assign(4 * file_bytes, 'x');
  EXPECT_EQ(spool.push(huge), 1u) << "a batch larger than the bound on its own is dropped";
  EXPECT_EQ(spool.size(), 3u);
  EXPECT_EQ(spool.front().batch_id, "id-0003");
}

TEST_F(SpoolTest, ASenderDropsTheOldestAtTheBoundAndReportsIt) {
  std::string url;
  { testing::HttpReceiver gone; url = gone.url(); }
  SenderConfig c = config(url);
  c.spool_max_bytes = 2 * (38 + 6);  // two spool files of batch(1..9)
  HttpSender sender(c);
  for (int n = 1; n <= 5; ++n) sender.enqueue(batch(n));
  EXPECT_FALSE(sender.drain_for(milliseconds(300)));
  sender.stop();
  const SpoolStats s = sender.spool_stats();
  EXPECT_EQ(s.spooled, 5u);
  EXPECT_EQ(s.dropped, 3u);
  EXPECT_EQ(s.left, 2u);
  EXPECT_EQ(s.directory, dir_.string());
  EXPECT_EQ(Spool(dir_.string(), c.spool_max_bytes).front().batch_id, "id-0004");
}

TEST_F(SpoolTest, ASpoolLeftByAPreviousRunIsSentFirst) {
  {
    Spool previous(dir_.string(), 1 << 20);
    previous.push(batch(1));
    previous.push(batch(2, Endpoint::kRefs));
  }
  testing::HttpReceiver ingest;
  HttpSender sender(config(ingest.url()));
  sender.enqueue(batch(3));
  ASSERT_TRUE(sender.drain_for(std::chrono::seconds(10)));
  EXPECT_EQ(ids_of(ingest.requests()), ids(1, 3));
  EXPECT_EQ(ingest.requests()[1].path, "/v1/refs");
  EXPECT_EQ(ingest.requests()[0].headers.at("authorization"), "Bearer agent-token-123");
  EXPECT_GE(sender.spool_stats().sent_from_spool, 2u);
  EXPECT_EQ(sender.spool_stats().sent_from_spool + sender.stats(0).sent, 3u);
  EXPECT_EQ(files_in_spool(), 0u);
}

TEST_F(SpoolTest, ARejectedSpooledBatchIsDeletedAndCounted) {
  { Spool previous(dir_.string(), 1 << 20); previous.push(batch(1)); previous.push(batch(2)); }
  testing::HttpReceiver ingest;
  ingest.script({{400, "Bad Request", R"({"code":"bad_request","message":"not OTLP"})", {}}});
  HttpSender sender(config(ingest.url()));
  ASSERT_TRUE(sender.drain_for(std::chrono::seconds(10)));
  const SpoolStats s = sender.spool_stats();
  EXPECT_EQ(s.rejected, 1u);
  EXPECT_EQ(s.sent_from_spool, 1u);
  EXPECT_NE(s.first_problem.find("HTTP 400 Bad Request"), std::string::npos) << s.first_problem;
  EXPECT_EQ(ingest.requests().size(), 2u) << "a 400 is not retried";
}

TEST_F(SpoolTest, APartiallyWrittenTempFileIsIgnored) {
  { Spool previous(dir_.string(), 1 << 20); previous.push(batch(1)); }
  // A crash between write and rename leaves "<sequence>.tmp", maybe truncated.
  const fs::path torn = dir_ / "00000000000000000001.tmp";
  std::ofstream(torn) << "tierwise-spool-v1\n/v1/met";
  Spool reopened(dir_.string(), 1 << 20);
  EXPECT_EQ(reopened.size(), 1u);
  EXPECT_FALSE(fs::exists(torn));
  reopened.push(batch(2));
  EXPECT_TRUE(fs::exists(dir_ / "00000000000000000002.batch")) << "sequence continues after the torn file";

  testing::HttpReceiver ingest;
  {
    HttpSender sender(config(ingest.url()));
    ASSERT_TRUE(sender.drain_for(std::chrono::seconds(10)));
  }
  EXPECT_EQ(ids_of(ingest.requests()), ids(1, 2));
}

TEST_F(SpoolTest, RefusesAZeroBoundAndAnUncreatableDirectory) {
  EXPECT_THROW(Spool(dir_.string(), 0), std::invalid_argument);
  fs::create_directories(dir_);
  std::ofstream(dir_ / "file") << "x";
  EXPECT_THROW(Spool((dir_ / "file" / "spool").string(), 1 << 20), std::runtime_error);
}

}  // namespace
}  // namespace tierwise::exporter
