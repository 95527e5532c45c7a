// Helpers shared by the edge-agent tests: where the real trace samples are,
// and temporary files that remove themselves.
#pragma once

#include <unistd.h>

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

}  // namespace tierwise::testing
