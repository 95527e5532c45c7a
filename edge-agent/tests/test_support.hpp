// Helpers shared by the edge-agent tests: where the real trace samples are,
// temporary files and directories that remove themselves, and CPU time spent
// on purpose.
#pragma once

#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

namespace tierwise::testing {

// shared/traces (TIERWISE_TRACES_DIR from the environment, else the path
// CMake compiled in).
inline std::string trace_path(std::string_view file_name) {
  const char* env = std::getenv("TIERWISE_TRACES_DIR");
  std::string dir = env != nullptr && *env != '\0' ? env : TIERWISE_TRACES_DIR;
  return dir + "/" + std::string(file_name);
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Replaces the content of the file at `path` (created when missing).
inline void write_file(const std::string& path, std::string_view content) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << content;
}

// A file under the system temp directory, deleted when this object dies.
class TempFile {
 public:
  // `name` keeps the suffix meaningful (".csv", ".vscsi"): readers name
  // single-volume traces after the file.
  explicit TempFile(std::string_view name)
      : path_((std::filesystem::temp_directory_path() /
               ("tierwise-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++) +
                "-" + std::string(name)))
                  .string()) {}
  TempFile(std::string_view name, std::string_view content) : TempFile(name) { write(content); }
  ~TempFile() { std::filesystem::remove(path_); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  const std::string& path() const { return path_; }
  void write(std::string_view content) const {
    std::ofstream(path_, std::ios::binary | std::ios::trunc) << content;
  }

 private:
  static int& counter() {
    static int next = 0;
    return next;
  }
  std::string path_;
};

// A directory under the system temp directory, removed with its contents
// when this object dies.
class TempDir {
 public:
  explicit TempDir(std::string_view name) : file_(name) { std::filesystem::create_directory(file_.path()); }
  ~TempDir() { std::filesystem::remove_all(file_.path()); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return file_.path(); }

 private:
  TempFile file_;  // the unique path; gone before ~TempFile runs
};

// Seconds of `clock` (clock_gettime(2): CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID, ...).
inline double clock_seconds(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

// Spins on the calling thread until it has run for `cpu` on a CPU (its own
// CPU clock, so a busy machine only makes it take longer).
inline void burn_cpu(std::chrono::milliseconds cpu) {
  const double end = clock_seconds(CLOCK_THREAD_CPUTIME_ID) + static_cast<double>(cpu.count()) / 1000;
  volatile uint64_t spin = 0;
  while (clock_seconds(CLOCK_THREAD_CPUTIME_ID) < end) {
    for (int i = 0; i < 10000; ++i) spin = spin + 1;
  }
}

}  // namespace tierwise::testing
