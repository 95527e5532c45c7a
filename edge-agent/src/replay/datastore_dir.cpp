#include "replay/datastore_dir.hpp"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace tierwise::replay {

DatastoreDir::DatastoreDir(const std::string& path) {
  namespace fs = std::filesystem;
  if (!path.empty()) {
    std::error_code ec;
    fs::create_directories(path, ec);
    if (ec) throw std::runtime_error("cannot create datastore directory " + path + ": " + ec.message());
    path_ = path;
    return;
  }
  std::string pattern = (fs::temp_directory_path() / "tierwise-datastore-XXXXXX").string();
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (mkdtemp(buf.data()) == nullptr) {
    throw std::runtime_error("cannot create a temporary datastore directory " + pattern + ": " +
                             std::strerror(errno));
  }
  path_ = buf.data();
  temporary_ = true;
}

DatastoreDir::~DatastoreDir() {
  if (!temporary_) return;
  std::error_code ec;  // best effort: never throw from a destructor
  std::filesystem::remove_all(path_, ec);
}

}  // namespace tierwise::replay
