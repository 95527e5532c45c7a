// Storage-bound CPU counters (telemetry/cpu_usage.hpp): the parsers on
// literal texts of the kernel's files (proc(5) /proc/stat and /proc/PID/stat,
// cgroup v2 cpu.stat), the clamped deltas, and the readers on this host's
// files, a process that exited and a missing cgroup.
#include <sys/wait.h>
#include <unistd.h>

#include <numeric>

#include <gtest/gtest.h>

#include "telemetry/cpu_usage.hpp"
#include "test_support.hpp"

namespace tierwise::telemetry {
namespace {

double mode(const HostCpuTimes& t, CpuMode m) { return t.seconds[static_cast<size_t>(m)]; }

TEST(CpuUsageTest, ProcStatFirstCpuLineInSecondsWithoutGuestTime) {
  // user nice system idle iowait irq softirq steal guest guest_nice, USER_HZ 100.
  const std::optional<HostCpuTimes> t =
      parse_proc_stat("cpu  1000 200 300 4000 50 6 7 8 900 10\ncpu0 500 100 150 2000 25 3 3 4 450 5\nintr 1 2\n", 100);
  ASSERT_TRUE(t.has_value());
  EXPECT_DOUBLE_EQ(mode(*t, CpuMode::kUser), 10.0) << "guest is inside user already";
  EXPECT_DOUBLE_EQ(mode(*t, CpuMode::kNice), 2.0) << "guest_nice is inside nice already";
  EXPECT_DOUBLE_EQ(mode(*t, CpuMode::kSystem), 3.0);
  EXPECT_DOUBLE_EQ(mode(*t, CpuMode::kIdle), 40.0);
  EXPECT_DOUBLE_EQ(mode(*t, CpuMode::kIowait), 0.5);
  EXPECT_DOUBLE_EQ(mode(*t, CpuMode::kInterrupt), 0.13) << "irq + softirq";
  EXPECT_DOUBLE_EQ(mode(*t, CpuMode::kSteal), 0.08);
  // Eight numbers are enough (no guest fields); other USER_HZ values scale.
  const std::optional<HostCpuTimes> eight = parse_proc_stat("cpu 250 0 0 0 0 0 0 0", 250);
  ASSERT_TRUE(eight.has_value());
  EXPECT_DOUBLE_EQ(mode(*eight, CpuMode::kUser), 1.0);
}

TEST(CpuUsageTest, ProcStatOfAnotherShapeIsRefused) {
  EXPECT_FALSE(parse_proc_stat("cpu0 1 2 3 4 5 6 7 8\n", 100)) << "a per-CPU line is not the total";
  EXPECT_FALSE(parse_proc_stat("cpu  1 2 3 4 5 6 7\ncpu0 1 2 3 4 5 6 7 8\n", 100)) << "seven numbers";
  EXPECT_FALSE(parse_proc_stat("cpu  1 2 x 4 5 6 7 8\n", 100));
  EXPECT_FALSE(parse_proc_stat("cpu  1 2 -3 4 5 6 7 8\n", 100));
  EXPECT_FALSE(parse_proc_stat("intr 1\ncpu  1 2 3 4 5 6 7 8\n", 100)) << "the first line only";
  EXPECT_FALSE(parse_proc_stat("", 100));
  EXPECT_FALSE(parse_proc_stat("cpu  1 2 3 4 5 6 7 8\n", 0)) << "no USER_HZ";
}

TEST(CpuUsageTest, ProcessStatFromTheLastParenthesis) {
  // comm "a) S 9 (b" holds spaces and ')': fields 3.. start after the last ')'.
  const std::string stat =
      "4242 (a) S 9 (b) R 1 4242 4242 0 -1 4194560 812 0 3 0 250 75 3 4 20 0 1 0 123456 10485760 300 "
      "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 17 2 0 0 0 0 0\n";
  const std::optional<ConsumerCpuTimes> t = parse_process_stat(stat, 100);
  ASSERT_TRUE(t.has_value());
  EXPECT_DOUBLE_EQ(t->user_seconds, 2.5) << "utime, field 14";
  EXPECT_DOUBLE_EQ(t->system_seconds, 0.75) << "stime, field 15 (cutime, cstime not added)";

  const std::optional<ConsumerCpuTimes> spaces =
      parse_process_stat("77 (tmux: server) S 1 77 77 0 -1 0 0 0 0 0 1000 500 0 0 20 0 1 0 5 0 0\n", 100);
  ASSERT_TRUE(spaces.has_value());
  EXPECT_DOUBLE_EQ(spaces->user_seconds, 10.0);
  EXPECT_DOUBLE_EQ(spaces->system_seconds, 5.0);
}

TEST(CpuUsageTest, ProcessStatOfAnotherShapeIsRefused) {
  EXPECT_FALSE(parse_process_stat("4242 (fio) S 1 4242 4242 0 -1 0 0 0 0 0 250\n", 100)) << "no stime";
  EXPECT_FALSE(parse_process_stat("4242 fio S 1 4242 4242 0 -1 0 0 0 0 0 250 75\n", 100)) << "no comm";
  EXPECT_FALSE(parse_process_stat("4242 (fio) S 1 4242 4242 0 -1 0 0 0 0 0 x 75\n", 100));
  EXPECT_FALSE(parse_process_stat("", 100));
}

TEST(CpuUsageTest, CgroupCpuStatUserAndSystemMicroseconds) {
  const std::optional<ConsumerCpuTimes> t = parse_cgroup_cpu_stat(
      "usage_usec 2500000\nuser_usec 1500000\nsystem_usec 1000000\nnr_periods 0\nnr_throttled 0\nthrottled_usec 0\n");
  ASSERT_TRUE(t.has_value());
  EXPECT_DOUBLE_EQ(t->user_seconds, 1.5);
  EXPECT_DOUBLE_EQ(t->system_seconds, 1.0);
  EXPECT_FALSE(parse_cgroup_cpu_stat("usage_usec 2500000\nuser_usec 1500000\n")) << "no system_usec";
  EXPECT_FALSE(parse_cgroup_cpu_stat("user_usec 1500000\nsystem_usec lots\n"));
  EXPECT_FALSE(parse_cgroup_cpu_stat(""));
}

TEST(CpuUsageTest, DeltasAreNeverNegative) {
  HostCpuTimes before, after;
  before.seconds = {10, 1, 5, 100, 4, 0.5, 0};
  after.seconds = {12, 1, 6, 107, 3.9, 0.75, 0};  // iowait went back (proc(5))
  const std::array<double, kCpuModeCount> d = host_cpu_delta(before, after);
  const std::array<double, kCpuModeCount> want = {2, 0, 1, 7, 0, 0.25, 0};
  for (size_t m = 0; m < kCpuModeCount; ++m) EXPECT_DOUBLE_EQ(d[m], want[m]) << kCpuModeNames[m];
  const ConsumerCpuTimes c = consumer_cpu_delta({2.0, 1.0}, {1.5, 1.25});
  EXPECT_DOUBLE_EQ(c.user_seconds, 0);
  EXPECT_DOUBLE_EQ(c.system_seconds, 0.25);
}

TEST(CpuUsageTest, NamesOfTheContract) {
  EXPECT_EQ(kCpuModeNames, (std::array<std::string_view, kCpuModeCount>{"user", "nice", "system", "idle", "iowait",
                                                                         "interrupt", "steal"}));
  EXPECT_EQ(consumer_kind_name(ConsumerKind::kProcess), "process");
  EXPECT_EQ(consumer_kind_name(ConsumerKind::kCgroup), "cgroup");
}

TEST(CpuUsageTest, ReadsThisHostAndThisProcess) {
  const CpuReading<HostCpuTimes> host = read_host_cpu();
  ASSERT_TRUE(host.times.has_value()) << host.message;
  EXPECT_GT(std::accumulate(host.times->seconds.begin(), host.times->seconds.end(), 0.0), 0.0);
  const std::optional<uint64_t> cpus = online_logical_cpus();
  ASSERT_TRUE(cpus.has_value());
  EXPECT_GE(*cpus, 1u);

  const CpuReading<ConsumerCpuTimes> before = read_process_cpu(::getpid());
  ASSERT_TRUE(before.times.has_value()) << before.message;
  testing::burn_cpu(std::chrono::milliseconds(50));
  const CpuReading<ConsumerCpuTimes> after = read_process_cpu(::getpid());
  ASSERT_TRUE(after.times.has_value()) << after.message;
  EXPECT_GT(after.times->user_seconds + after.times->system_seconds,
            before.times->user_seconds + before.times->system_seconds);
}

TEST(CpuUsageTest, AProcessThatExitedAndAMissingCgroupAreGone) {
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) ::_exit(0);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  const CpuReading<ConsumerCpuTimes> exited = read_process_cpu(child);
  EXPECT_FALSE(exited.times.has_value());
  EXPECT_TRUE(exited.gone()) << exited.message;
  EXPECT_EQ(exited.message.rfind("/proc/" + std::to_string(child) + "/stat: ", 0), 0u) << exited.message;

  const CpuReading<ConsumerCpuTimes> missing = read_cgroup_cpu("/nonexistent-tierwise-cgroup");
  EXPECT_FALSE(missing.times.has_value());
  EXPECT_TRUE(missing.gone());
  EXPECT_EQ(missing.message, "/nonexistent-tierwise-cgroup/cpu.stat: No such file or directory");
}

TEST(CpuUsageTest, ACgroupDirectoryWhoseCpuStatIsNotOneIsInvalid) {
  const testing::TempDir dir("cgroup");
  testing::write_file(dir.path() + "/cpu.stat", "usage_usec 10\n");
  const CpuReading<ConsumerCpuTimes> r = read_cgroup_cpu(dir.path());
  EXPECT_FALSE(r.times.has_value());
  EXPECT_EQ(r.error, EINVAL);
  EXPECT_FALSE(r.gone());
  EXPECT_NE(r.message.find(dir.path() + "/cpu.stat: not a cgroup v2 cpu.stat"), std::string::npos) << r.message;

  testing::write_file(dir.path() + "/cpu.stat", "usage_usec 30\nuser_usec 20\nsystem_usec 10\n");
  const CpuReading<ConsumerCpuTimes> ok = read_cgroup_cpu(dir.path());
  ASSERT_TRUE(ok.times.has_value()) << ok.message;
  EXPECT_DOUBLE_EQ(ok.times->user_seconds, 20e-6);
}

}  // namespace
}  // namespace tierwise::telemetry
