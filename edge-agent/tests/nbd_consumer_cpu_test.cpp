// serve's storage-bound CPU through the real NBD server (frontend/nbd) and
// LiveTelemetry, in one process (proto/METRICS.md `system.cpu.time`,
// `system.cpu.logical.count`, `tierwise.consumer.cpu.time`): a client on the
// Unix socket is its export's consumer, the process that connected
// (SO_PEERCRED: this test's own pid); the CPU it burns before disconnecting,
// ahead of the interval's close, is exported as the consumer's, kind
// `process`. A TCP client names no consumer: only the host's CPU goes out.
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
#include "test_support.hpp"

namespace tierwise::serve {
namespace {

namespace nbd = frontend::nbd;
namespace otlp = opentelemetry::proto;
using testing::Bytes;

constexpr uint64_t kVolumeBytes = 1 << 20;
constexpr uint32_t kIoBytes = 4096;
constexpr int64_t kStartUs = 1'700'000'000'000'000;
constexpr auto kBurn = std::chrono::milliseconds(200);
constexpr double kTickSlack = 0.03;  // utime and stime in clock ticks, each rounded down

// Forwards to LiveTelemetry and keeps the pids attached and detached.
class AttachObserver final : public nbd::IoObserver {
 public:
  explicit AttachObserver(LiveTelemetry& live) : live_(live) {}
  void on_io(size_t volume, uint64_t offset, const cache::IoOutcome& outcome) override {
    live_.on_io(volume, offset, outcome);
  }
  void on_issue(size_t volume, const nbd::IssuedIo& io) override { live_.on_issue(volume, io); }
  void on_turn_end() override { live_.on_turn_end(); }
  void on_attach(size_t volume, pid_t pid) override {
    attached.push_back(pid);
    live_.on_attach(volume, pid);
  }
  void on_detach(size_t volume, pid_t pid) override {
    detached.push_back(pid);
    live_.on_detach(volume, pid);
  }

  std::vector<pid_t> attached, detached;  // read after the reactor thread ended

 private:
  LiveTelemetry& live_;
};

std::string attribute(const google::protobuf::RepeatedPtrField<otlp::common::v1::KeyValue>& attrs,
                      const std::string& key) {
  for (const auto& kv : attrs) {
    if (kv.key() == key) return kv.value().string_value();
  }
  return "<absent>";
}

// One volume "vol" (RAM tier and datastore) served on a reactor thread with
// LiveTelemetry exporting to an HTTP receiver.
class NbdConsumerCpuTest : public ::testing::Test {
 protected:
  void start(const nbd::ListenAddress& address) {
    ASSERT_EQ(blockdev::UringQueue::create(64, &queue_), 0);
    ASSERT_EQ(blockdev::RamDevice::create(kVolumeBytes, &datastore_), 0);
    ASSERT_EQ(blockdev::RamDevice::create(kVolumeBytes, &tier_), 0);
    ASSERT_EQ(cache::CacheEngine::create(*datastore_, *tier_, kVolumeBytes, &engine_), 0);
    exporter::SenderConfig config;
    config.ingest_url = ingest_.url();
    config.token = "agent-token";
    sender_ = std::make_unique<exporter::HttpSender>(config);
    live_ = std::make_unique<LiveTelemetry>(LiveTelemetry::Options{"host", "", false, "test"},
                                            std::vector<LiveTelemetry::VolumeSource>{{"vol", engine_.get()}},
                                            hasher_, sampler_, sender_.get(), kStartUs);
    observer_ = std::make_unique<AttachObserver>(*live_);
    std::vector<nbd::Volume> volumes(1);
    volumes[0].info = nbd::ExportInfo{"vol", "", kVolumeBytes, nbd::kVolumeTransmissionFlags};
    volumes[0].engine = engine_.get();
    ASSERT_EQ(nbd::NbdServer::create(address, *queue_, std::move(volumes), observer_.get(), &server_), 0);
    stop_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    ASSERT_GE(stop_fd_, 0);
    ASSERT_EQ(server_->watch(stop_fd_, [this] {
      uint64_t n = 0;
      [[maybe_unused]] const ssize_t r = ::read(stop_fd_, &n, sizeof n);
      server_->stop();
    }), 0);
    reactor_ = std::thread([this] { run_rc_ = server_->run(); });
  }

  void TearDown() override {
    if (reactor_.joinable()) stop();
    if (stop_fd_ >= 0) ::close(stop_fd_);
  }

  // Handshake on `fd`, a write and a read of 4 KiB (the volume saw I/O: its
  // interval is exported), `burn` of CPU on this thread, then NBD_CMD_DISC
  // and close.
  static void session(int fd, std::chrono::milliseconds burn) {
    ASSERT_GE(fd, 0);
    ASSERT_EQ(testing::handshake_export_name(fd, "vol"), kVolumeBytes);
    Bytes requests;
    testing::append_request(requests, nbd::kCmdWrite, 1, 0, kIoBytes);
    testing::append_request(requests, nbd::kCmdRead, 2, 0, kIoBytes);
    testing::send_all(fd, requests);
    const size_t reply_bytes = 2 * nbd::kSimpleReplyBytes + kIoBytes;
    ASSERT_EQ(testing::receive(fd, reply_bytes).size(), reply_bytes);
    testing::burn_cpu(burn);
    Bytes disconnect;
    testing::append_request(disconnect, nbd::kCmdDisc, 3, 0, 0);
    testing::send_all(fd, disconnect);
    ::close(fd);
  }

  // Stops the server once every connection finished.
  void stop() {
    const uint64_t one = 1;
    ASSERT_EQ(::write(stop_fd_, &one, sizeof one), static_cast<ssize_t>(sizeof one));
    reactor_.join();
    EXPECT_EQ(run_rc_, 0);
  }

  // Stops serving, closes the interval and returns the metrics of the one
  // request exported, by name.
  std::map<std::string, otlp::metrics::v1::Metric> finish() {
    stop();
    live_->finish(kStartUs + 1'000'000);
    sender_->drain();
    std::map<std::string, otlp::metrics::v1::Metric> metrics;
    size_t requests = 0;
    for (const auto& req : ingest_.requests()) {
      if (req.path != "/v1/metrics") continue;
      ++requests;
      exporter::ExportMetricsServiceRequest decoded;
      EXPECT_TRUE(decoded.ParseFromString(req.body));
      for (const auto& m : decoded.resource_metrics(0).scope_metrics(0).metrics()) metrics[m.name()] = m;
    }
    EXPECT_EQ(requests, 1u);
    return metrics;
  }

  // system.cpu.time with all seven modes, each >= 0, their sum in `*total`,
  // and the online CPUs.
  static void expect_host_cpu(const std::map<std::string, otlp::metrics::v1::Metric>& metrics, double* total) {
    ASSERT_EQ(metrics.count("system.cpu.time"), 1u);
    const auto& host = metrics.at("system.cpu.time");
    EXPECT_EQ(host.unit(), "s");
    EXPECT_EQ(host.sum().aggregation_temporality(), otlp::metrics::v1::AGGREGATION_TEMPORALITY_DELTA);
    ASSERT_EQ(host.sum().data_points_size(), 7);
    *total = 0;
    for (const auto& p : host.sum().data_points()) {
      EXPECT_GE(p.as_double(), 0.0) << attribute(p.attributes(), "cpu.mode");
      *total += p.as_double();
    }
    ASSERT_EQ(metrics.count("system.cpu.logical.count"), 1u);
    EXPECT_EQ(metrics.at("system.cpu.logical.count").gauge().data_points(0).as_int(), ::sysconf(_SC_NPROCESSORS_ONLN));
  }

  testing::HttpReceiver ingest_;
  const sampling::KeyedHasher hasher_{sampling::TenantKey{}};
  const sampling::ShardsSampler sampler_{hasher_, 1.0};
  std::unique_ptr<blockdev::UringQueue> queue_;
  std::unique_ptr<blockdev::RamDevice> datastore_, tier_;
  std::unique_ptr<cache::CacheEngine> engine_;
  std::unique_ptr<exporter::HttpSender> sender_;
  std::unique_ptr<LiveTelemetry> live_;
  std::unique_ptr<AttachObserver> observer_;
  std::unique_ptr<nbd::NbdServer> server_;  // destroyed before the observer and telemetry
  int stop_fd_ = -1;
  int run_rc_ = -1;
  std::thread reactor_;
};

TEST_F(NbdConsumerCpuTest, TheUnixSocketPeerIsTheConsumerAndItsCpuTimeIsExported) {
  const std::string socket_path =
      (std::filesystem::temp_directory_path() / ("tierwise-nbd-consumer-" + std::to_string(::getpid()) + ".sock"))
          .string();
  start(nbd::ListenAddress{socket_path});
  session(testing::connect_unix(socket_path), kBurn);  // leaves before the interval closes
  const std::map<std::string, otlp::metrics::v1::Metric> metrics = finish();

  EXPECT_EQ(observer_->attached, std::vector<pid_t>{::getpid()}) << "the process that connected (SO_PEERCRED)";
  EXPECT_EQ(observer_->detached, std::vector<pid_t>{::getpid()});
  double host_total = 0;
  expect_host_cpu(metrics, &host_total);
  EXPECT_GT(host_total, 0.0) << "the host ran the busy loop";
  ASSERT_EQ(metrics.count("tierwise.consumer.cpu.time"), 1u);
  const auto& consumer = metrics.at("tierwise.consumer.cpu.time");
  EXPECT_EQ(consumer.unit(), "s");
  EXPECT_TRUE(consumer.sum().is_monotonic());
  ASSERT_EQ(consumer.sum().data_points_size(), 2);
  double seconds = 0;
  for (const auto& [i, mode] : {std::pair{0, "user"}, std::pair{1, "system"}}) {
    const auto& p = consumer.sum().data_points(i);
    EXPECT_EQ(attribute(p.attributes(), "cpu.mode"), mode);
    EXPECT_EQ(attribute(p.attributes(), "tierwise.consumer.kind"), "process");
    EXPECT_GE(p.as_double(), 0.0);
    seconds += p.as_double();
  }
  EXPECT_GE(seconds, 0.2 - kTickSlack) << "the busy loop before the disconnect";
}

TEST_F(NbdConsumerCpuTest, ATcpClientNamesNoConsumer) {
  nbd::ListenAddress address;
  address.tcp_port = 0;
  start(address);
  session(testing::connect_tcp(server_->tcp_port()), std::chrono::milliseconds(0));
  const std::map<std::string, otlp::metrics::v1::Metric> metrics = finish();

  EXPECT_TRUE(observer_->attached.empty());
  double host_total = 0;  // a few milliseconds: the kernel's counters (clock ticks) may not have moved
  expect_host_cpu(metrics, &host_total);
  EXPECT_EQ(metrics.count("tierwise.consumer.cpu.time"), 0u);
}

}  // namespace
}  // namespace tierwise::serve
