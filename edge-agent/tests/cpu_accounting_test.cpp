// serve's CpuAccounting: the host's CPU time between closes (never negative),
// a process consumer counted once however many connections it attached with
// and still counted when it detaches before the close, a cgroup consumer
// (a directory with a cpu.stat written by the test) winning over the socket
// peers, and the interval's usage encoded into the OTLP request.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <numeric>
#include <string>

#include <gtest/gtest.h>

#include "export/otlp_metrics.hpp"
#include "serve/cpu_accounting.hpp"
#include "telemetry/volume_collector.hpp"
#include "test_support.hpp"

namespace tierwise::serve {
namespace {

using telemetry::ConsumerKind;
using telemetry::CpuUsage;

constexpr auto kBurn = std::chrono::milliseconds(200);
// /proc/PID/stat counts in clock ticks (USER_HZ, 100 on Linux), utime and
// stime each rounded down: a delta of their sum is off by up to two ticks.
constexpr double kTickSlack = 0.03;

void expect_host_measured(const CpuUsage& u) {
  ASSERT_TRUE(u.host_measured);
  for (size_t m = 0; m < telemetry::kCpuModeCount; ++m) {
    EXPECT_GE(u.host_seconds[m], 0.0) << telemetry::kCpuModeNames[m];
  }
  EXPECT_EQ(u.logical_cpus, static_cast<uint64_t>(::sysconf(_SC_NPROCESSORS_ONLN)));
}

double consumer_seconds(const CpuUsage& u) { return u.consumer.user_seconds + u.consumer.system_seconds; }

TEST(CpuAccountingTest, NothingIsMeasuredBeforeTheFirstClose) {
  const CpuAccounting cpu({""});
  EXPECT_FALSE(cpu.usage(0).host_measured);
  EXPECT_EQ(cpu.usage(0).consumer_kind, ConsumerKind::kNone);
}

TEST(CpuAccountingTest, AProcessOnTwoConnectionsCountsOnce) {
  CpuAccounting cpu({"", ""});
  const double process_before = testing::clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
  cpu.attach(0, ::getpid());
  cpu.attach(0, ::getpid());
  testing::burn_cpu(kBurn);
  cpu.detach(0, ::getpid());  // one connection left: still attached
  cpu.close();
  const double process_spent = testing::clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - process_before;

  const CpuUsage& u = cpu.usage(0);
  expect_host_measured(u);
  EXPECT_GT(std::accumulate(u.host_seconds.begin(), u.host_seconds.end(), 0.0), 0.0)
      << "the host ran this busy loop";
  ASSERT_EQ(u.consumer_kind, ConsumerKind::kProcess);
  EXPECT_GE(consumer_seconds(u), 0.2 - kTickSlack);
  EXPECT_LE(consumer_seconds(u), process_spent + kTickSlack) << "counted once, not per connection";
  EXPECT_EQ(cpu.usage(1).consumer_kind, ConsumerKind::kNone) << "nothing attached to volume 1";
  expect_host_measured(cpu.usage(1));

  // Its last connection goes in the next interval: still a consumer there.
  cpu.detach(0, ::getpid());
  cpu.close();
  EXPECT_EQ(cpu.usage(0).consumer_kind, ConsumerKind::kProcess);
  EXPECT_GE(cpu.usage(0).consumer.user_seconds, 0.0);
  EXPECT_GE(cpu.usage(0).consumer.system_seconds, 0.0);
  // Then an interval without any.
  cpu.close();
  EXPECT_EQ(cpu.usage(0).consumer_kind, ConsumerKind::kNone);
  expect_host_measured(cpu.usage(0));
}

TEST(CpuAccountingTest, AClientThatLeavesBeforeTheCloseIsCounted) {
  CpuAccounting cpu({""});
  cpu.attach(0, ::getpid());
  testing::burn_cpu(kBurn);
  cpu.detach(0, ::getpid());
  testing::burn_cpu(std::chrono::milliseconds(150));  // after the detach: not the consumer's
  cpu.close();
  ASSERT_EQ(cpu.usage(0).consumer_kind, ConsumerKind::kProcess);
  EXPECT_GE(consumer_seconds(cpu.usage(0)), 0.2 - kTickSlack);
  EXPECT_LE(consumer_seconds(cpu.usage(0)), 0.2 + 2 * kTickSlack);
}

TEST(CpuAccountingTest, ACgroupWinsOverTheSocketPeers) {
  const testing::TempDir dir("consumer-cgroup");
  const std::string stat = dir.path() + "/cpu.stat";
  testing::write_file(stat, "usage_usec 1500000\nuser_usec 1000000\nsystem_usec 500000\n");
  CpuAccounting cpu({dir.path()});
  cpu.attach(0, ::getpid());  // ignored: the cgroup is the consumer
  testing::write_file(stat, "usage_usec 3750000\nuser_usec 3000000\nsystem_usec 750000\n");
  cpu.close();
  ASSERT_EQ(cpu.usage(0).consumer_kind, ConsumerKind::kCgroup);
  EXPECT_DOUBLE_EQ(cpu.usage(0).consumer.user_seconds, 2.0);
  EXPECT_DOUBLE_EQ(cpu.usage(0).consumer.system_seconds, 0.25);
  expect_host_measured(cpu.usage(0));
  cpu.detach(0, ::getpid());

  // The cgroup removed: no consumer figure; back again: a new baseline first.
  std::filesystem::remove(stat);
  cpu.close();
  EXPECT_EQ(cpu.usage(0).consumer_kind, ConsumerKind::kNone);
  testing::write_file(stat, "usage_usec 10\nuser_usec 5\nsystem_usec 5\n");
  cpu.close();
  EXPECT_EQ(cpu.usage(0).consumer_kind, ConsumerKind::kNone);
  testing::write_file(stat, "usage_usec 2000015\nuser_usec 1000005\nsystem_usec 1000010\n");
  cpu.close();
  ASSERT_EQ(cpu.usage(0).consumer_kind, ConsumerKind::kCgroup);
  EXPECT_DOUBLE_EQ(cpu.usage(0).consumer.user_seconds, 1.0);
  EXPECT_DOUBLE_EQ(cpu.usage(0).consumer.system_seconds, 1.000005);
}

TEST(CpuAccountingTest, TheIntervalsUsageIsInTheEncodedRequest) {
  CpuAccounting cpu({""});
  cpu.attach(0, ::getpid());
  testing::burn_cpu(std::chrono::milliseconds(20));
  cpu.close();
  telemetry::VolumeCollector collector;
  collector.record_frontend(telemetry::Direction::kWrite, 4096, 5000, 1'000'000);
  collector.close_interval(telemetry::CacheTotals{}, cpu.usage(0));
  const exporter::VolumeResource resource{"h", "v", "", "", "", ""};
  const exporter::VolumeInterval volume{&resource, &collector.metrics()};
  exporter::ExportMetricsServiceRequest request;
  exporter::encode_metrics({&volume, 1}, {1'000'000'000, 2'000'000'000}, "test", &request);

  size_t host_points = 0, consumer_points = 0;
  bool count = false;
  for (const auto& m : request.resource_metrics(0).scope_metrics(0).metrics()) {
    if (m.name() == "system.cpu.time") {
      for (const auto& p : m.sum().data_points()) {
        ++host_points;
        EXPECT_GE(p.as_double(), 0.0);
      }
    }
    if (m.name() == "system.cpu.logical.count") count = m.gauge().data_points(0).as_int() >= 1;
    if (m.name() == "tierwise.consumer.cpu.time") {
      for (const auto& p : m.sum().data_points()) {
        ++consumer_points;
        EXPECT_GE(p.as_double(), 0.0);
      }
    }
  }
  EXPECT_EQ(host_points, telemetry::kCpuModeCount);
  EXPECT_TRUE(count);
  EXPECT_EQ(consumer_points, 2u);
}

}  // namespace
}  // namespace tierwise::serve
