#include "export/spool.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <system_error>

namespace tierwise::exporter {
namespace {

namespace fs = std::filesystem;

constexpr char kMagic[] = "tierwise-spool-v1";
constexpr size_t kSequenceDigits = 20;  // uint64_t max has 20 decimal digits

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw std::runtime_error("spool: " + what + " " + path + ": " + std::strerror(errno));
}

// Writes all of `data` to `path` and fsyncs it.
void write_synced(const std::string& path, const std::string& data) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) fail("cannot create", path);
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      fail("cannot write", path);
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    ::close(fd);
    fail("cannot fsync", path);
  }
  ::close(fd);
}

void sync_directory(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail("cannot open", dir);
  const int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) fail("cannot fsync", dir);
}

Endpoint endpoint_of(const std::string& path) {
  for (Endpoint e : {Endpoint::kMetrics, Endpoint::kRefs, Endpoint::kReferenceBatches}) {
    if (path == endpoint_path(e)) return e;
  }
  throw std::runtime_error("spool: unknown endpoint " + path);
}

}  // namespace

Spool::Spool(std::string directory, uint64_t max_bytes)
    : directory_(std::move(directory)), max_bytes_(max_bytes) {
  if (max_bytes_ == 0) throw std::invalid_argument("--spool-max-bytes must be more than 0");
  std::error_code ec;
  fs::create_directories(directory_, ec);
  if (ec) throw std::runtime_error("spool: cannot create " + directory_ + ": " + ec.message());
  for (const fs::directory_entry& entry : fs::directory_iterator(directory_, ec)) {
    const std::string name = entry.path().filename().string();
    const std::string stem = entry.path().stem().string();
    const bool numbered = stem.size() == kSequenceDigits &&
                          stem.find_first_not_of("0123456789") == std::string::npos;
    if (!numbered) continue;
    const uint64_t sequence = std::stoull(stem);
    if (entry.path().extension() == ".tmp") {
      fs::remove(entry.path(), ec);  // a write a crash interrupted: never renamed, never sent
    } else if (entry.path().extension() == ".batch") {
      const uint64_t size = entry.file_size();
      files_[sequence] = size;
      bytes_ += size;
    } else {
      continue;
    }
    next_sequence_ = std::max(next_sequence_, sequence + 1);
  }
  if (ec) throw std::runtime_error("spool: cannot read " + directory_ + ": " + ec.message());
}

std::string Spool::path_of(uint64_t sequence, const char* suffix) const {
  char name[kSequenceDigits + 1];
  std::snprintf(name, sizeof name, "%020llu", static_cast<unsigned long long>(sequence));
  return directory_ + "/" + name + suffix;
}

uint64_t Spool::push(const Batch& batch) {
  std::string data = std::string(kMagic) + "\n" +
                     endpoint_path(batch.endpoint) + "\n" +
                     batch.batch_id + "\n";
  data += batch.body;
  const uint64_t before = dropped_;
  if (data.size() > max_bytes_) {
    ++dropped_;
    return 1;
  }
  while (bytes_ + data.size() > max_bytes_) drop_oldest();
  const uint64_t sequence = next_sequence_++;
  const std::string tmp = path_of(sequence, ".tmp");
  const std::string final_path = path_of(sequence, ".batch");
  write_synced(tmp, data);
  if (::rename(tmp.c_str(), final_path.c_str()) != 0) fail("cannot rename", tmp);
  sync_directory(directory_);
  files_[sequence] = data.size();
  bytes_ += data.size();
  return dropped_ - before;
}

Batch Spool::front() const {
  const std::string path = path_of(files_.begin()->first, ".batch");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot open", path);
  std::string magic, endpoint;
  Batch batch;
  std::getline(in, magic);
  std::getline(in, endpoint);
  std::getline(in, batch.batch_id);
  if (!in || magic != kMagic) throw std::runtime_error("spool: " + path + " is not a spooled batch");
  batch.endpoint = endpoint_of(endpoint);
  batch.body.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return batch;
}

void Spool::pop() {
  const auto oldest = files_.begin();
  const std::string path = path_of(oldest->first, ".batch");
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) fail("cannot delete", path);
  bytes_ -= oldest->second;
  files_.erase(oldest);
}

void Spool::drop_oldest() {
  pop();
  ++dropped_;
}

}  // namespace tierwise::exporter
