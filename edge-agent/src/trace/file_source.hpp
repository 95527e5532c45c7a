// Internal to the trace library: the concrete byte sources behind
// open_byte_source().
#pragma once

#include <memory>
#include <string>

#include "trace/byte_source.hpp"

namespace tierwise::trace {

// Reads an open file descriptor (owned, closed on destruction) with read(2).
class FileSource final : public ByteSource {
 public:
  explicit FileSource(int fd) : fd_(fd) {}
  ~FileSource() override;
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;
  size_t read(char* buffer, size_t size) override;

 private:
  int fd_;
};

// gzip stream (zlib gzread; concatenated members are read in sequence).
// Takes ownership of `fd`.
// Throws TraceOpenError naming `path` when zlib cannot start.
std::unique_ptr<ByteSource> make_gzip_source(int fd, const std::string& path);

// bzip2 stream (libbz2 BZ2_bzDecompress; concatenated streams, as written by
// pbzip2, are read in sequence). Throws TraceOpenError naming `path` when
// libbz2 cannot start.
std::unique_ptr<ByteSource> make_bzip2_source(std::unique_ptr<FileSource> file,
                                              const std::string& path);

}  // namespace tierwise::trace
