// Errors of the trace readers: per-record problems (reported and skipped) and
// whole-file problems (thrown).
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

namespace tierwise::trace {

// A malformed record that a reader skipped.
struct TraceError {
  enum class Unit : uint8_t { kLine, kRecord };
  std::string file;
  Unit unit = Unit::kLine;
  // 1-based line number (CSV) or record number (binary formats).
  uint64_t number = 0;
  std::string reason;

  // "<file>:<line>: <reason>" or "<file>:record <n>: <reason>".
  std::string to_string() const;
};

// Receives each malformed record as it is found; the reader then continues.
using ErrorSink = std::function<void(const TraceError&)>;

// The trace cannot be opened or its format cannot be determined. what() names
// the file and the reason.
class TraceOpenError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Thrown by ByteSource::read: an I/O error or a corrupt or truncated
// compressed stream. what() is the reason, without the file name; the
// readers turn it into a TraceError at the position where input ended.
class TraceReadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace tierwise::trace
