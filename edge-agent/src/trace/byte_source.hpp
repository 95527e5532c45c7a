// Streaming byte sources: a trace file read as-is, or decompressed on the fly
// (gzip via zlib, bzip2 via libbz2). Compression is recognised from the file's
// magic bytes, never from its name, and the file is never loaded whole.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace tierwise::trace {

enum class Compression { kNone, kGzip, kBzip2 };

// "none", "gzip" or "bzip2".
std::string_view compression_name(Compression compression);

// A sequential stream of bytes.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Copies up to `size` bytes into `buffer`; returns the number copied, 0 at the
  // end of the stream. Throws TraceReadError (reason without the file name) on
  // an I/O error or a corrupt or truncated compressed stream.
  virtual size_t read(char* buffer, size_t size) = 0;
};

// Compression named by the first bytes of a file: gzip 1f 8b (RFC 1952),
// bzip2 "BZh" + block size digit; anything else is uncompressed.
Compression detect_compression(std::string_view head);

// Opens `path` and returns its decompressed content as a stream.
// Throws TraceOpenError when the file cannot be opened or read.
std::unique_ptr<ByteSource> open_byte_source(const std::string& path,
                                             Compression* detected = nullptr);

}  // namespace tierwise::trace
