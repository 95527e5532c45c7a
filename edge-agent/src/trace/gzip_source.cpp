// gzip byte source on zlib's gz* streaming API.
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <climits>
#include <cstring>

#include "trace/file_source.hpp"
#include "trace/trace_error.hpp"

namespace tierwise::trace {
namespace {

// zlib's internal buffer for gzread, bytes (its default is 8 KiB).
constexpr unsigned kGzipBufferBytes = 256 * 1024;

class GzipSource final : public ByteSource {
 public:
  explicit GzipSource(gzFile file) : file_(file) {}
  ~GzipSource() override { gzclose(file_); }
  GzipSource(const GzipSource&) = delete;
  GzipSource& operator=(const GzipSource&) = delete;

  size_t read(char* buffer, size_t size) override {
    unsigned chunk = size > INT_MAX ? INT_MAX : static_cast<unsigned>(size);
    int n = gzread(file_, buffer, chunk);
    if (n > 0) return static_cast<size_t>(n);
    int status = Z_OK;
    gzerror(file_, &status);
    switch (status) {
      case Z_OK:
        return 0;
      // A stream cut short shows as Z_BUF_ERROR once its data has been returned.
      case Z_BUF_ERROR:
        throw TraceReadError("gzip stream is truncated");
      case Z_ERRNO:
        throw TraceReadError(std::string("read failed: ") + std::strerror(errno));
      default:
        throw TraceReadError("gzip stream is corrupt (zlib error " + std::to_string(status) + ")");
    }
  }

 private:
  gzFile file_;
};

}  // namespace

std::unique_ptr<ByteSource> make_gzip_source(int fd, const std::string& path) {
  gzFile file = gzdopen(fd, "rb");
  if (file == nullptr) {
    ::close(fd);
    throw TraceOpenError(path + ": cannot start gzip decompression (out of memory)");
  }
  gzbuffer(file, kGzipBufferBytes);
  return std::make_unique<GzipSource>(file);
}

}  // namespace tierwise::trace
