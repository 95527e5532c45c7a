#include "telemetry/cpu_usage.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstring>

namespace tierwise::telemetry {
namespace {

constexpr double kMicrosPerSecond = 1e6;
// Bytes read from the start of a file: the first line of /proc/stat, a whole
// /proc/PID/stat or cpu.stat, with room to spare.
constexpr size_t kHeadBytes = 16 * 1024;

// Splits off the next run of non-blank characters of `text`.
std::string_view next_token(std::string_view& text) {
  const size_t start = text.find_first_not_of(" \t");
  if (start == std::string_view::npos) {
    text = {};
    return {};
  }
  const size_t end = text.find_first_of(" \t", start);
  const std::string_view token = text.substr(start, end - start);
  text = end == std::string_view::npos ? std::string_view{} : text.substr(end);
  return token;
}

std::optional<uint64_t> parse_number(std::string_view token) {
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (token.empty() || ec != std::errc{} || end != token.data() + token.size()) return std::nullopt;
  return value;
}

// Up to kHeadBytes from the start of `path` into `text`; 0 or an errno value.
int read_head(const std::string& path, std::string* text) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  text->resize(kHeadBytes);
  size_t got = 0;
  int error = 0;
  while (got < text->size()) {
    const ssize_t n = ::read(fd, text->data() + got, text->size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = errno;
      break;
    }
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  ::close(fd);  // read-only: nothing to lose
  text->resize(got);
  return error;
}

template <typename Times>
CpuReading<Times> failure(int error, const std::string& path, const std::string& cause) {
  CpuReading<Times> r;
  r.error = error;
  r.message = path + ": " + cause;
  return r;
}

// Reads `path` and parses it with `parse`; EINVAL when the text is not as `shape` says.
template <typename Times, typename Parse>
CpuReading<Times> read_with(const std::string& path, const char* shape, Parse parse) {
  std::string text;
  if (const int error = read_head(path, &text); error != 0) {
    return failure<Times>(error, path, std::strerror(error));
  }
  std::optional<Times> times = parse(text);
  if (!times) return failure<Times>(EINVAL, path, std::string("not ") + shape);
  CpuReading<Times> r;
  r.times = *times;
  return r;
}

// sysconf(_SC_CLK_TCK): USER_HZ, the unit of /proc/stat and /proc/PID/stat.
std::optional<long> ticks_per_second() {
  errno = 0;
  const long hz = ::sysconf(_SC_CLK_TCK);
  if (hz <= 0) return std::nullopt;
  return hz;
}

}  // namespace

std::string_view consumer_kind_name(ConsumerKind kind) {
  switch (kind) {
    case ConsumerKind::kProcess:
      return "process";
    case ConsumerKind::kCgroup:
      return "cgroup";
    case ConsumerKind::kNone:
      break;
  }
  return "";
}

std::array<double, kCpuModeCount> host_cpu_delta(const HostCpuTimes& before, const HostCpuTimes& after) {
  std::array<double, kCpuModeCount> delta{};
  for (size_t m = 0; m < kCpuModeCount; ++m) delta[m] = std::max(0.0, after.seconds[m] - before.seconds[m]);
  return delta;
}

ConsumerCpuTimes consumer_cpu_delta(const ConsumerCpuTimes& before, const ConsumerCpuTimes& after) {
  return {std::max(0.0, after.user_seconds - before.user_seconds),
          std::max(0.0, after.system_seconds - before.system_seconds)};
}

std::optional<HostCpuTimes> parse_proc_stat(std::string_view text, long ticks_per_second) {
  if (ticks_per_second <= 0 || !text.starts_with("cpu ")) return std::nullopt;
  std::string_view line = text.substr(0, text.find('\n'));
  next_token(line);  // "cpu"
  // user nice system idle iowait irq softirq steal (guest, guest_nice: inside user, nice)
  std::array<uint64_t, 8> ticks{};
  for (uint64_t& t : ticks) {
    const std::optional<uint64_t> v = parse_number(next_token(line));
    if (!v) return std::nullopt;
    t = *v;
  }
  const auto hz = static_cast<double>(ticks_per_second);
  auto seconds = [hz](uint64_t t) { return static_cast<double>(t) / hz; };
  HostCpuTimes times;
  times.seconds[static_cast<size_t>(CpuMode::kUser)] = seconds(ticks[0]);
  times.seconds[static_cast<size_t>(CpuMode::kNice)] = seconds(ticks[1]);
  times.seconds[static_cast<size_t>(CpuMode::kSystem)] = seconds(ticks[2]);
  times.seconds[static_cast<size_t>(CpuMode::kIdle)] = seconds(ticks[3]);
  times.seconds[static_cast<size_t>(CpuMode::kIowait)] = seconds(ticks[4]);
  times.seconds[static_cast<size_t>(CpuMode::kInterrupt)] = seconds(ticks[5] + ticks[6]);
  times.seconds[static_cast<size_t>(CpuMode::kSteal)] = seconds(ticks[7]);
  return times;
}

std::optional<ConsumerCpuTimes> parse_process_stat(std::string_view text, long ticks_per_second) {
  const size_t open = text.find('(');
  const size_t close = text.rfind(')');
  if (ticks_per_second <= 0 || open == std::string_view::npos || close == std::string_view::npos || close < open) {
    return std::nullopt;
  }
  std::string_view rest = text.substr(close + 1);
  rest = rest.substr(0, rest.find('\n'));
  // Fields 3 (state) to 13 (cmajflt), then 14 (utime) and 15 (stime).
  for (int field = 3; field <= 13; ++field) {
    if (next_token(rest).empty()) return std::nullopt;
  }
  const std::optional<uint64_t> utime = parse_number(next_token(rest));
  const std::optional<uint64_t> stime = parse_number(next_token(rest));
  if (!utime || !stime) return std::nullopt;
  const auto hz = static_cast<double>(ticks_per_second);
  return ConsumerCpuTimes{static_cast<double>(*utime) / hz, static_cast<double>(*stime) / hz};
}

std::optional<ConsumerCpuTimes> parse_cgroup_cpu_stat(std::string_view text) {
  std::optional<uint64_t> user_usec, system_usec;
  while (!text.empty()) {
    const size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view{} : text.substr(eol + 1);
    const std::string_view key = next_token(line);
    if (key == "user_usec") user_usec = parse_number(next_token(line));
    if (key == "system_usec") system_usec = parse_number(next_token(line));
  }
  if (!user_usec || !system_usec) return std::nullopt;
  return ConsumerCpuTimes{static_cast<double>(*user_usec) / kMicrosPerSecond,
                          static_cast<double>(*system_usec) / kMicrosPerSecond};
}

CpuReading<HostCpuTimes> read_host_cpu() {
  const std::string path = "/proc/stat";
  const std::optional<long> hz = ticks_per_second();
  if (!hz) return failure<HostCpuTimes>(errno != 0 ? errno : EINVAL, path, "sysconf(_SC_CLK_TCK) failed");
  return read_with<HostCpuTimes>(path, "a \"cpu \" line of eight numbers (proc(5))",
                                 [&](std::string_view text) { return parse_proc_stat(text, *hz); });
}

CpuReading<ConsumerCpuTimes> read_process_cpu(pid_t pid) {
  const std::string path = "/proc/" + std::to_string(pid) + "/stat";
  const std::optional<long> hz = ticks_per_second();
  if (!hz) return failure<ConsumerCpuTimes>(errno != 0 ? errno : EINVAL, path, "sysconf(_SC_CLK_TCK) failed");
  return read_with<ConsumerCpuTimes>(path, "a process's stat line with utime and stime (proc(5))",
                                     [&](std::string_view text) { return parse_process_stat(text, *hz); });
}

CpuReading<ConsumerCpuTimes> read_cgroup_cpu(const std::string& cgroup_dir) {
  return read_with<ConsumerCpuTimes>(cgroup_dir + "/cpu.stat", "a cgroup v2 cpu.stat with user_usec and system_usec",
                                     [](std::string_view text) { return parse_cgroup_cpu_stat(text); });
}

std::optional<uint64_t> online_logical_cpus() {
  const long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  if (n <= 0) return std::nullopt;
  return static_cast<uint64_t>(n);
}

}  // namespace tierwise::telemetry
