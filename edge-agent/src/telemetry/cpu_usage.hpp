// Storage-bound CPU (proto/METRICS.md `system.cpu.time`,
// `system.cpu.logical.count`, `tierwise.consumer.cpu.time`): the kernel's
// cumulative CPU counters of the host, of a process and of a cgroup v2, their
// parsers and readers, and one interval's CPU usage as IntervalMetrics
// carries it. Every time here is in seconds.
#pragma once

#include <sys/types.h>

#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tierwise::telemetry {

// `cpu.mode` of `system.cpu.time` (proto/METRICS.md), in the order the
// encoder writes them: kInterrupt is the kernel's irq + softirq.
enum class CpuMode : uint8_t { kUser, kNice, kSystem, kIdle, kIowait, kInterrupt, kSteal };
inline constexpr size_t kCpuModeCount = 7;
inline constexpr std::array<std::string_view, kCpuModeCount> kCpuModeNames = {
    "user", "nice", "system", "idle", "iowait", "interrupt", "steal"};

// The host's CPU time since boot, summed over all CPUs, by CpuMode (index:
// the CpuMode's value).
struct HostCpuTimes {
  std::array<double, kCpuModeCount> seconds{};
};

// A consumer's CPU time: user and system (kernel) mode.
struct ConsumerCpuTimes {
  double user_seconds = 0;
  double system_seconds = 0;
};

// What a volume's consumer is (`tierwise.consumer.kind`): kNone, no consumer
// can be named (a TCP client; no client); kProcess, the processes attached to
// its NBD export over a Unix socket; kCgroup, its volume's `consumer_cgroup`.
enum class ConsumerKind : uint8_t { kNone, kProcess, kCgroup };

// "process" / "cgroup" (proto/METRICS.md `tierwise.consumer.kind`); "" for kNone.
std::string_view consumer_kind_name(ConsumerKind kind);

// One volume's CPU usage over one interval. Default-constructed: not
// measured (replay and import-vscsistats have no CPU figures): no
// `system.cpu.*` and no `tierwise.consumer.cpu.time` are encoded.
struct CpuUsage {
  bool host_measured = false;  // host_seconds and logical_cpus hold the interval's figures
  std::array<double, kCpuModeCount> host_seconds{};  // system.cpu.time by CpuMode, >= 0
  uint64_t logical_cpus = 0;   // system.cpu.logical.count: online CPUs at interval end
  ConsumerKind consumer_kind = ConsumerKind::kNone;  // kNone: no tierwise.consumer.cpu.time
  ConsumerCpuTimes consumer;   // the consumer's CPU time in the interval, >= 0
};

// `after` minus `before` for each mode, 0 where a counter went back (proc(5):
// iowait "will decrease in certain conditions").
std::array<double, kCpuModeCount> host_cpu_delta(const HostCpuTimes& before, const HostCpuTimes& after);
// `after` minus `before` for user and system, 0 where a counter went back.
ConsumerCpuTimes consumer_cpu_delta(const ConsumerCpuTimes& before, const ConsumerCpuTimes& after);

// The first line of /proc/stat (proc(5), "/proc/stat"): "cpu" then the
// cumulative time of all CPUs in units of USER_HZ (`ticks_per_second`,
// sysconf(_SC_CLK_TCK)) for user, nice, system, idle, iowait, irq, softirq,
// steal, guest and guest_nice. guest and guest_nice are already counted in
// user and nice, so they are not added. std::nullopt when `text` does not
// start with a "cpu " line of at least eight numbers.
std::optional<HostCpuTimes> parse_proc_stat(std::string_view text, long ticks_per_second);

// /proc/PID/stat (proc(5), "/proc/pid/stat"): utime (field 14) and stime
// (field 15), in clock ticks (`ticks_per_second`), of the whole process (all
// its threads; waited-for children, fields 16 and 17, not included). Field 2,
// comm, is in parentheses and may hold spaces and ')': the fields after it are
// counted from the last ')'. std::nullopt when `text` is not of that shape.
std::optional<ConsumerCpuTimes> parse_process_stat(std::string_view text, long ticks_per_second);

// cgroup v2 cpu.stat (the kernel's Documentation/admin-guide/cgroup-v2.rst,
// "CPU Interface Files"): "key value" lines, of which user_usec and
// system_usec, microseconds, are taken. std::nullopt when either is missing
// or not a number.
std::optional<ConsumerCpuTimes> parse_cgroup_cpu_stat(std::string_view text);

// What reading one of the kernel's files gave: the times, or `error` (an
// errno value; EINVAL: the text is not of the documented shape) and
// `message` naming the file and the cause.
template <typename Times>
struct CpuReading {
  std::optional<Times> times;
  int error = 0;
  std::string message;

  // The file does not exist (any more): the process exited, the cgroup was
  // removed (ENOENT; ESRCH when the process went while it was read).
  bool gone() const { return error == ENOENT || error == ESRCH; }
};

// /proc/stat through parse_proc_stat().
CpuReading<HostCpuTimes> read_host_cpu();
// /proc/PID/stat through parse_process_stat().
CpuReading<ConsumerCpuTimes> read_process_cpu(pid_t pid);
// `cgroup_dir`/cpu.stat through parse_cgroup_cpu_stat().
CpuReading<ConsumerCpuTimes> read_cgroup_cpu(const std::string& cgroup_dir);

// sysconf(_SC_NPROCESSORS_ONLN), the online logical CPUs; std::nullopt when it fails.
std::optional<uint64_t> online_logical_cpus();

}  // namespace tierwise::telemetry
