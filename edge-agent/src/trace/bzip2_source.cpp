// bzip2 byte source on libbz2's low-level streaming API.
#include <bzlib.h>

#include <climits>
#include <vector>

#include "trace/file_source.hpp"
#include "trace/trace_error.hpp"

namespace tierwise::trace {
namespace {

// Compressed bytes read from the file per refill.
constexpr size_t kCompressedChunkBytes = 256 * 1024;

class Bzip2Source final : public ByteSource {
 public:
  explicit Bzip2Source(std::unique_ptr<FileSource> file)
      : file_(std::move(file)), input_(kCompressedChunkBytes), started_(start_stream()) {}
  ~Bzip2Source() override { BZ2_bzDecompressEnd(&stream_); }
  Bzip2Source(const Bzip2Source&) = delete;
  Bzip2Source& operator=(const Bzip2Source&) = delete;

  // False when libbz2 could not start (out of memory).
  bool started() const { return started_; }

  size_t read(char* buffer, size_t size) override {
    stream_.next_out = buffer;
    stream_.avail_out = size > UINT_MAX ? UINT_MAX : static_cast<unsigned>(size);
    while (stream_.avail_out > 0 && !finished_) {
      if (stream_.avail_in == 0 && !refill()) {
        if (!at_stream_end_) throw TraceReadError("bzip2 stream is truncated");
        finished_ = true;
        break;
      }
      if (at_stream_end_) next_stream();
      int status = BZ2_bzDecompress(&stream_);
      if (status == BZ_STREAM_END) {
        at_stream_end_ = true;
      } else if (status != BZ_OK) {
        throw TraceReadError("bzip2 stream is corrupt (libbz2 error " + std::to_string(status) +
                             ")");
      }
    }
    return static_cast<size_t>(stream_.next_out - buffer);
  }

 private:
  bool start_stream() {
    stream_ = bz_stream{};
    at_stream_end_ = false;
    return BZ2_bzDecompressInit(&stream_, 0, 0) == BZ_OK;
  }

  // Another bzip2 stream follows the one that ended (pbzip2 writes several):
  // restart the decompressor where the input and output stand.
  void next_stream() {
    BZ2_bzDecompressEnd(&stream_);
    bz_stream position = stream_;
    if (!start_stream()) throw TraceReadError("cannot restart bzip2 decompression");
    stream_.next_in = position.next_in;
    stream_.avail_in = position.avail_in;
    stream_.next_out = position.next_out;
    stream_.avail_out = position.avail_out;
  }

  bool refill() {
    size_t n = file_->read(input_.data(), input_.size());
    stream_.next_in = input_.data();
    stream_.avail_in = static_cast<unsigned>(n);
    return n > 0;
  }

  std::unique_ptr<FileSource> file_;
  std::vector<char> input_;
  bz_stream stream_{};
  bool at_stream_end_ = false;
  bool finished_ = false;
  bool started_;
};

}  // namespace

std::unique_ptr<ByteSource> make_bzip2_source(std::unique_ptr<FileSource> file,
                                              const std::string& path) {
  auto source = std::make_unique<Bzip2Source>(std::move(file));
  if (!source->started()) throw TraceOpenError(path + ": cannot start bzip2 decompression");
  return source;
}

}  // namespace tierwise::trace
