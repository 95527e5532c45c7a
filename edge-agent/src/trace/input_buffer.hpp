// Large-buffer reader over a ByteSource: look ahead without consuming (format
// detection), then consume by lines (CSV) or by fixed-size records (binary).
//
// A read error (I/O, corrupt or truncated compressed stream) ends the input
// early: what was read before it is still returned, and stream_error() says
// what happened, so the reader can report it and keep the records it has.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "trace/byte_source.hpp"

namespace tierwise::trace {

class InputBuffer {
 public:
  // Default buffer size, bytes. Lines longer than the buffer grow it.
  static constexpr size_t kDefaultCapacity = 1 << 20;

  explicit InputBuffer(std::unique_ptr<ByteSource> source, size_t capacity = kDefaultCapacity);

  // Up to `size` bytes from the current position, without consuming them;
  // fewer only at the end of the input. Valid until the next call.
  std::string_view peek(size_t size);

  // The next line without its "\n" or "\r\n"; false at the end of the input.
  // A last line without a terminator is returned too, unless the input ended
  // with a stream error (the line is then incomplete). Valid until the next call.
  bool next_line(std::string_view& line);

  // Consumes and returns up to `size` bytes; fewer only at the end of the input
  // (empty when nothing is left). Valid until the next call.
  std::string_view take(size_t size);

  // Why the input ended early ("gzip stream is truncated"), or empty.
  const std::string& stream_error() const { return stream_error_; }

 private:
  // Reads more input after the buffered bytes, growing the buffer when it is
  // full; returns false at the end of the input.
  bool fill();

  std::unique_ptr<ByteSource> source_;
  std::vector<char> buffer_;
  size_t begin_ = 0;
  size_t end_ = 0;
  bool eof_ = false;
  std::string stream_error_;
};

}  // namespace tierwise::trace
