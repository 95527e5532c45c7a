// The directory holding the volumes' sparse datastore files during a replay.
#pragma once

#include <string>

namespace tierwise::replay {

/*
 * Lifecycle of a DatastoreDir
 *
 * 1. Construct with a path: the directory is created when missing and kept at
 *    the end. Construct with an empty path: a fresh directory
 *    <tmp>/tierwise-datastore-XXXXXX is created (mkdtemp) and removed, with
 *    everything in it, on destruction.
 * 2. path() is where the datastore files go.
 * Throws std::runtime_error naming the directory when it cannot be created.
 */
class DatastoreDir {
 public:
  explicit DatastoreDir(const std::string& path);
  ~DatastoreDir();
  DatastoreDir(const DatastoreDir&) = delete;
  DatastoreDir& operator=(const DatastoreDir&) = delete;

  const std::string& path() const { return path_; }
  bool temporary() const { return temporary_; }

 private:
  std::string path_;
  bool temporary_ = false;
};

}  // namespace tierwise::replay
