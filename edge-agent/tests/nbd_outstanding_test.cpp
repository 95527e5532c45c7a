// serve's issue-time telemetry through the real NBD server (frontend/nbd) and
// LiveTelemetry, in one process: a client on a Unix socket sends batches of N
// requests in one write, so the server reads each batch at once. A command
// counts as outstanding from its dispatch until its reply was handed to the
// socket (proto/METRICS.md `tierwise.io.outstanding`; IoObserver::on_issue),
// so even commands the RAM tier completes at once stay in flight until the
// turn's replies go out: the k-th command of a batch sees k, the last one N,
// and a batch sent after every reply of the one before starts again at 1.
// The exported OTLP request carries that histogram and the seek distances and
// interarrival times of the same commands.
#include <sys/eventfd.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "blockdev/ram_device.hpp"
#include "blockdev/uring_queue.hpp"
#include "cache/cache_engine.hpp"
#include "export/http_sender.hpp"
#include "export/otlp_metrics.hpp"
#include "export_http_receiver.hpp"
#include "frontend/nbd/protocol.hpp"
#include "frontend/nbd/server.hpp"
#include "nbd_test_client.hpp"
#include "sampling/keyed_hash.hpp"
#include "sampling/shards_sampler.hpp"
#include "serve/serve_telemetry.hpp"

namespace tierwise::serve {
namespace {

namespace nbd = frontend::nbd;
using testing::append_request;
using testing::Bytes;
using testing::receive;
using testing::send_all;

constexpr uint64_t kVolumeBytes = 1 << 20;
constexpr uint32_t kIoBytes = 512;
constexpr int64_t kStartUs = 1'700'000'000'000'000;

// Forwards to LiveTelemetry and keeps what on_issue() was told.
class RecordingObserver final : public nbd::IoObserver {
 public:
  explicit RecordingObserver(LiveTelemetry& live) : live_(live) {}
  void on_io(size_t volume, uint64_t offset, const cache::IoOutcome& outcome) override {
    live_.on_io(volume, offset, outcome);
  }
  void on_issue(size_t volume, const nbd::IssuedIo& io) override {
    issued.push_back(io);
    live_.on_issue(volume, io);
  }
  void on_turn_end() override { live_.on_turn_end(); }

  std::vector<nbd::IssuedIo> issued;  // read after the reactor thread ended

 private:
  LiveTelemetry& live_;
};

std::string attribute(const google::protobuf::RepeatedPtrField<opentelemetry::proto::common::v1::KeyValue>& attrs,
                      const std::string& key) {
  for (const auto& kv : attrs) {
    if (kv.key() == key) return kv.value().string_value();
  }
  return "<absent>";
}

TEST(NbdOutstandingTest, EachBatchOfNRequestsReachesNInFlight) {
  constexpr int kBatch = 8;  // reads and writes alternating
  constexpr int kBatches = 2;
  const std::string socket_path =
      (std::filesystem::temp_directory_path() / ("tierwise-nbd-outstanding-" + std::to_string(::getpid()) + ".sock"))
          .string();

  std::unique_ptr<blockdev::UringQueue> queue;
  ASSERT_EQ(blockdev::UringQueue::create(64, &queue), 0);
  std::unique_ptr<blockdev::RamDevice> datastore, tier;
  ASSERT_EQ(blockdev::RamDevice::create(kVolumeBytes, &datastore), 0);
  ASSERT_EQ(blockdev::RamDevice::create(kVolumeBytes, &tier), 0);
  std::unique_ptr<cache::CacheEngine> engine;
  ASSERT_EQ(cache::CacheEngine::create(*datastore, *tier, kVolumeBytes, &engine), 0);

  testing::HttpReceiver ingest;
  exporter::SenderConfig config;
  config.ingest_url = ingest.url();
  config.token = "agent-token";
  exporter::HttpSender sender(config);
  const sampling::KeyedHasher hasher{sampling::TenantKey{}};
  const sampling::ShardsSampler sampler{hasher, 1.0};
  LiveTelemetry live(LiveTelemetry::Options{"host", "", false, "test"},
                     {{"vol", engine.get()}}, hasher, sampler, &sender, kStartUs);
  RecordingObserver observer(live);

  std::vector<nbd::Volume> volumes(1);
  volumes[0].info = nbd::ExportInfo{"vol", "", kVolumeBytes, nbd::kVolumeTransmissionFlags};
  volumes[0].engine = engine.get();
  std::unique_ptr<nbd::NbdServer> server;
  ASSERT_EQ(nbd::NbdServer::create(nbd::ListenAddress{socket_path}, *queue, std::move(volumes), &observer, &server), 0);
  const int stop_fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  ASSERT_GE(stop_fd, 0);
  ASSERT_EQ(server->watch(stop_fd, [&] {
    uint64_t n = 0;
    [[maybe_unused]] const ssize_t r = ::read(stop_fd, &n, sizeof n);
    server->stop();
  }), 0);
  int run_rc = -1;
  std::thread reactor([&] { run_rc = server->run(); });

  const int fd = testing::connect_unix(socket_path);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(testing::handshake_export_name(fd, "vol"), kVolumeBytes);

  // Sequential 512-byte commands, one sector each: read, write, read, ...
  uint64_t sector = 0;
  for (int batch = 0; batch < kBatches; ++batch) {
    Bytes requests;
    size_t reply_bytes = 0;
    for (int i = 0; i < kBatch; ++i, ++sector) {
      const uint16_t type = i % 2 == 0 ? nbd::kCmdRead : nbd::kCmdWrite;
      append_request(requests, type, sector, sector * kIoBytes, kIoBytes);
      reply_bytes += nbd::kSimpleReplyBytes + (type == nbd::kCmdRead ? kIoBytes : 0);
    }
    send_all(fd, requests);  // one write: the server reads the batch at once
    ASSERT_EQ(receive(fd, reply_bytes).size(), reply_bytes) << "batch " << batch;
  }
  Bytes disconnect;
  append_request(disconnect, nbd::kCmdDisc, 0, 0, 0);
  send_all(fd, disconnect);
  ::close(fd);

  const uint64_t one = 1;
  ASSERT_EQ(::write(stop_fd, &one, sizeof one), static_cast<ssize_t>(sizeof one));
  reactor.join();
  ::close(stop_fd);
  EXPECT_EQ(run_rc, 0);
  EXPECT_EQ(server->volumes()[0].in_flight[0] + server->volumes()[0].in_flight[1], 0u)
      << "every command answered, none in flight";

  // What the server told the observer, command by command.
  ASSERT_EQ(observer.issued.size(), static_cast<size_t>(kBatch * kBatches));
  for (size_t i = 0; i < observer.issued.size(); ++i) {
    const nbd::IssuedIo& io = observer.issued[i];
    const auto k = static_cast<uint32_t>(i % kBatch);  // earlier commands of its batch
    EXPECT_EQ(io.direction, k % 2 == 0 ? cache::Direction::kRead : cache::Direction::kWrite) << i;
    EXPECT_EQ(io.offset, i * kIoBytes) << i;
    EXPECT_EQ(io.length, kIoBytes) << i;
    EXPECT_EQ(io.in_flight, k + 1) << i;
    EXPECT_EQ(io.in_flight_direction, k / 2 + 1) << i;
    if (k > 0) {
      EXPECT_EQ(io.issued_ns, observer.issued[i - 1].issued_ns) << "read together: " << i;
    }
  }

  live.finish(kStartUs + 1'000'000);
  sender.drain();
  std::map<std::string, const opentelemetry::proto::metrics::v1::HistogramDataPoint*> points;
  std::vector<exporter::ExportMetricsServiceRequest> decoded;
  for (const auto& req : ingest.requests()) {
    if (req.path != "/v1/metrics") continue;
    decoded.emplace_back();
    ASSERT_TRUE(decoded.back().ParseFromString(req.body));
  }
  ASSERT_EQ(decoded.size(), 1u);
  for (const auto& metric : decoded[0].resource_metrics(0).scope_metrics(0).metrics()) {
    if (!metric.has_histogram()) continue;
    for (const auto& p : metric.histogram().data_points()) {
      points[metric.name() + "/" + attribute(p.attributes(), "io.direction")] = &p;
    }
  }
  // Outstanding: each batch 1..8 (all), 1..4 per direction; mass up to N, none above.
  const std::vector<uint64_t> all = {2, 2, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0};  // "1" "2" "4" "6" "8"
  const std::vector<uint64_t> per_direction = {2, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  for (const auto& [key, want] : {std::pair{"all", all}, std::pair{"read", per_direction},
                                  std::pair{"write", per_direction}}) {
    const auto* p = points[std::string("tierwise.io.outstanding/") + key];
    ASSERT_NE(p, nullptr) << key;
    EXPECT_EQ(std::vector<uint64_t>(p->bucket_counts().begin(), p->bucket_counts().end()), want) << key;
    EXPECT_EQ(p->max(), std::string(key) == "all" ? kBatch : kBatch / 2) << key;
  }
  // Seek: every command follows the one before (bucket "1"); each direction's
  // command follows its previous one by 2 sectors (bucket "2").
  const auto* seek_all = points["tierwise.io.seek_distance/all"];
  ASSERT_NE(seek_all, nullptr);
  EXPECT_EQ(seek_all->count(), kBatch * kBatches - 1u);
  EXPECT_EQ(seek_all->bucket_counts(17), kBatch * kBatches - 1u);
  const auto* seek_read = points["tierwise.io.seek_distance/read"];
  ASSERT_NE(seek_read, nullptr);
  EXPECT_EQ(seek_read->bucket_counts(18), kBatch * kBatches / 2 - 1u);
  EXPECT_FALSE(seek_read->has_sum());
  // Interarrival: the commands of a batch were read together (0: bucket "1").
  const auto* interarrival = points["tierwise.io.interarrival/all"];
  ASSERT_NE(interarrival, nullptr);
  EXPECT_EQ(interarrival->count(), kBatch * kBatches - 1u);
  EXPECT_GE(interarrival->bucket_counts(0), kBatches * (kBatch - 1u));
}

}  // namespace
}  // namespace tierwise::serve
