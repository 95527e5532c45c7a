#include "trace/byte_source.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include "trace/file_source.hpp"
#include "trace/trace_error.hpp"

namespace tierwise::trace {

std::string_view compression_name(Compression compression) {
  switch (compression) {
    case Compression::kGzip:
      return "gzip";
    case Compression::kBzip2:
      return "bzip2";
    case Compression::kNone:
      break;
  }
  return "none";
}

Compression detect_compression(std::string_view head) {
  if (head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
      static_cast<unsigned char>(head[1]) == 0x8b) {
    return Compression::kGzip;
  }
  if (head.size() >= 4 && head.substr(0, 3) == "BZh" && head[3] >= '1' && head[3] <= '9') {
    return Compression::kBzip2;
  }
  return Compression::kNone;
}

FileSource::~FileSource() { ::close(fd_); }

size_t FileSource::read(char* buffer, size_t size) {
  while (true) {
    ssize_t n = ::read(fd_, buffer, size);
    if (n >= 0) return static_cast<size_t>(n);
    if (errno != EINTR) {
      throw TraceReadError(std::string("read failed: ") + std::strerror(errno));
    }
  }
}

std::unique_ptr<ByteSource> open_byte_source(const std::string& path, Compression* detected) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    throw TraceOpenError(path + ": cannot open: " + std::strerror(errno));
  }
  std::array<char, 4> magic{};
  ssize_t n = ::pread(fd, magic.data(), magic.size(), 0);
  if (n < 0) {
    int err = errno;
    ::close(fd);
    throw TraceOpenError(path + ": cannot read: " + std::strerror(err));
  }
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  Compression compression = detect_compression({magic.data(), static_cast<size_t>(n)});
  if (detected != nullptr) *detected = compression;
  switch (compression) {
    case Compression::kGzip:
      return make_gzip_source(fd, path);
    case Compression::kBzip2:
      return make_bzip2_source(std::make_unique<FileSource>(fd), path);
    case Compression::kNone:
      break;
  }
  return std::make_unique<FileSource>(fd);
}

}  // namespace tierwise::trace
