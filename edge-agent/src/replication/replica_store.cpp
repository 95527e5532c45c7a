#include "replication/replica_store.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "cache/writeback/journal_format.hpp"
#include "common/little_endian.hpp"

namespace tierwise::replication {
namespace {

constexpr uint32_t kHello = 1;
constexpr uint32_t kRecord = 2;
constexpr uint32_t kTrim = 3;
constexpr size_t kHeader = 16;
constexpr uint32_t kMaxEntryPayload = 64 * 1024 + 8192;
constexpr const char* kSuffix = ".replicas";

using common::load_le;
using common::store_le;

int read_all(int fd, std::vector<std::byte>* out) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return -errno;
  out->resize(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (done < out->size()) {
    const ssize_t n = ::pread(fd, out->data() + done, out->size() - done, static_cast<off_t>(done));
    if (n < 0) return -errno;
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  out->resize(done);
  return 0;
}

// Replays a volume file into `v`; returns the length of its valid prefix.
size_t replay(std::span<const std::byte> bytes, StoredVolume* v) {
  size_t at = 0;
  while (bytes.size() - at >= kHeader + 4) {
    const std::byte* h = bytes.data() + at;
    const uint32_t type = load_le<uint32_t>(h);
    const uint32_t length = load_le<uint32_t>(h + 4);
    const uint64_t value = load_le<uint64_t>(h + 8);
    if (length > kMaxEntryPayload || bytes.size() - at < kHeader + length + 4) break;
    const auto entry = bytes.subspan(at, kHeader + length);
    if (load_le<uint32_t>(h + kHeader + length) != cache::writeback::crc32c(entry)) break;
    const auto payload = entry.subspan(kHeader);
    if (type == kHello) {
      Hello hello;
      if (!decode_hello(payload, &hello)) break;
      if (hello.epoch != v->hello.epoch) v->records.clear();
      v->hello = hello;
    } else if (type == kRecord) {
      if (!record_valid(payload, value)) break;
      v->records[value].assign(payload.begin(), payload.end());
    } else if (type == kTrim) {
      v->records.erase(v->records.begin(), v->records.upper_bound(value));
    } else {
      break;
    }
    at += kHeader + length + 4;
  }
  return at;
}

}  // namespace

ReplicaStore::~ReplicaStore() {
  for (const auto& [volume, fd] : fds_) ::close(fd);
}

ReplicaStore::ReplicaStore(ReplicaStore&& other) noexcept { *this = std::move(other); }

ReplicaStore& ReplicaStore::operator=(ReplicaStore&& other) noexcept {
  std::swap(dir_, other.dir_);
  std::swap(fds_, other.fds_);
  std::swap(unsynced_, other.unsynced_);
  return *this;
}

std::string ReplicaStore::path_of(uint64_t volume) const { return dir_ + "/" + std::to_string(volume) + kSuffix; }

int ReplicaStore::open(const std::string& dir, ReplicaStore* out, std::map<uint64_t, StoredVolume>* loaded,
                       std::string* error) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    *error = "replica store " + dir + ": " + std::strerror(errno);
    return -errno;
  }
  ReplicaStore store;
  store.dir_ = dir;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) {
    *error = "replica store " + dir + ": " + std::strerror(errno);
    return -errno;
  }
  std::vector<uint64_t> volumes;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    const size_t dot = name.find(kSuffix);
    if (dot == std::string::npos || dot + std::strlen(kSuffix) != name.size()) continue;
    volumes.push_back(std::stoull(name.substr(0, dot)));
  }
  ::closedir(d);
  for (uint64_t volume : volumes) {
    const int fd = store.fd_of(volume, false);
    if (fd < 0) {
      *error = "replica store " + store.path_of(volume) + ": " + std::strerror(-fd);
      return fd;
    }
    std::vector<std::byte> bytes;
    if (const int rc = read_all(fd, &bytes); rc != 0) {
      *error = "replica store " + store.path_of(volume) + ": " + std::strerror(-rc);
      return rc;
    }
    StoredVolume v;
    const size_t valid = replay(bytes, &v);
    if (valid < bytes.size() && ::ftruncate(fd, static_cast<off_t>(valid)) != 0) return -errno;
    if (v.hello.epoch > 0 || !v.records.empty()) (*loaded)[volume] = std::move(v);
  }
  *out = std::move(store);
  return 0;
}

int ReplicaStore::fd_of(uint64_t volume, bool truncate) {
  auto it = fds_.find(volume);
  if (it != fds_.end() && !truncate) return it->second;
  if (it != fds_.end()) {
    unsynced_.erase(it->second);
    ::close(it->second);
    fds_.erase(it);
  }
  const int fd = ::open(path_of(volume).c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | (truncate ? O_TRUNC : 0), 0600);
  if (fd < 0) return -errno;
  fds_[volume] = fd;
  return fd;
}

int ReplicaStore::append(uint64_t volume, uint32_t type, uint64_t value, std::span<const std::byte> payload) {
  const int fd = fd_of(volume, false);
  if (fd < 0) return fd;
  std::vector<std::byte> entry(kHeader + payload.size() + 4);
  store_le<uint32_t>(entry.data(), type);
  store_le<uint32_t>(entry.data() + 4, static_cast<uint32_t>(payload.size()));
  store_le<uint64_t>(entry.data() + 8, value);
  std::memcpy(entry.data() + kHeader, payload.data(), payload.size());
  store_le<uint32_t>(entry.data() + kHeader + payload.size(),
                     cache::writeback::crc32c(std::span<const std::byte>(entry.data(), kHeader + payload.size())));
  if (::write(fd, entry.data(), entry.size()) != static_cast<ssize_t>(entry.size())) return errno != 0 ? -errno : -EIO;
  unsynced_.insert(fd);
  return 0;
}

int ReplicaStore::hello(uint64_t volume, const Hello& hello) {
  if (const int fd = fd_of(volume, true); fd < 0) return fd;  // a new epoch: nothing older is kept
  std::vector<std::byte> payload;
  encode_hello(hello, &payload);
  return append(volume, kHello, volume, payload);
}

int ReplicaStore::record(uint64_t volume, uint64_t seq, std::span<const std::byte> record) {
  return append(volume, kRecord, seq, record);
}

int ReplicaStore::trim(uint64_t volume, uint64_t watermark, bool empty, const Hello& hello) {
  if (empty) return this->hello(volume, hello);
  return append(volume, kTrim, watermark, {});
}

int ReplicaStore::drop(uint64_t volume) {
  const auto it = fds_.find(volume);
  if (it != fds_.end()) {
    unsynced_.erase(it->second);
    ::close(it->second);
    fds_.erase(it);
  }
  return ::unlink(path_of(volume).c_str()) == 0 || errno == ENOENT ? 0 : -errno;
}

int ReplicaStore::sync() {
  int rc = 0;
  for (int fd : unsynced_) {
    if (::fdatasync(fd) != 0 && rc == 0) rc = -errno;
  }
  unsynced_.clear();
  return rc;
}

}  // namespace tierwise::replication
