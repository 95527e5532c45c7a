#include "trace/input_buffer.hpp"

#include <cstring>

#include "trace/trace_error.hpp"

namespace tierwise::trace {

InputBuffer::InputBuffer(std::unique_ptr<ByteSource> source, size_t capacity)
    : source_(std::move(source)), buffer_(capacity) {}

bool InputBuffer::fill() {
  if (eof_) return false;
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);
  size_t n = 0;
  try {
    n = source_->read(buffer_.data() + end_, buffer_.size() - end_);
  } catch (const TraceReadError& e) {
    stream_error_ = e.what();
  }
  if (n == 0) {
    eof_ = true;
    return false;
  }
  end_ += n;
  return true;
}

std::string_view InputBuffer::peek(size_t size) {
  while (end_ - begin_ < size && fill()) {
  }
  return {buffer_.data() + begin_, std::min(size, end_ - begin_)};
}

std::string_view InputBuffer::take(size_t size) {
  std::string_view bytes = peek(size);
  begin_ += bytes.size();
  return bytes;
}

bool InputBuffer::next_line(std::string_view& line) {
  size_t scanned = 0;
  while (true) {
    const char* start = buffer_.data() + begin_;
    const void* newline = std::memchr(start + scanned, '\n', end_ - begin_ - scanned);
    if (newline != nullptr) {
      size_t length = static_cast<size_t>(static_cast<const char*>(newline) - start);
      line = {start, length};
      begin_ += length + 1;
      break;
    }
    scanned = end_ - begin_;
    if (!fill()) {
      if (begin_ == end_ || !stream_error_.empty()) return false;
      line = {buffer_.data() + begin_, end_ - begin_};
      begin_ = end_;
      break;
    }
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return true;
}

}  // namespace tierwise::trace
