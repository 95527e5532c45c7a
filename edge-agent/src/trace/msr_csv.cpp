// MSR Cambridge block traces (SNIA IOTTA 388), no header:
//   Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
// Timestamp: Windows FILETIME (100 ns ticks since 1601-01-01 UTC); Type: Read
// or Write; Offset, Size: bytes; ResponseTime: 100 ns ticks. Volume name:
// "<Hostname>_<DiskNumber>" (e.g. "hm_0").
#include "trace/csv_format.hpp"
#include "trace/field_parse.hpp"

namespace tierwise::trace {
namespace {

// FILETIME of the Unix epoch 1970-01-01 00:00:00 UTC, 100 ns ticks.
constexpr int64_t kUnixEpochFiletime = 116'444'736'000'000'000;
constexpr int64_t kTicksPerMicrosecond = 10;

RowOutcome parse_msr(const CsvRow& row, IoRecord& out) {
  const auto& f = row.fields;
  int64_t filetime = checked_signed(parse_uint(f[0], "Timestamp"), "Timestamp");
  if (f[3] == "Read") {
    out.direction = Direction::kRead;
  } else if (f[3] == "Write") {
    out.direction = Direction::kWrite;
  } else {
    throw MalformedRecord("field 'Type': '" + std::string(f[3]) + "' is not Read or Write");
  }
  uint64_t disk = parse_uint(f[2], "DiskNumber");
  if (f[1].empty()) throw MalformedRecord("field 'Hostname' is empty");
  out.time_us = (filetime - kUnixEpochFiletime) / kTicksPerMicrosecond;
  out.offset_bytes = parse_uint(f[4], "Offset");
  out.length_bytes = checked_length(parse_uint(f[5], "Size"), "Size");
  out.response_time_us =
      checked_signed(parse_uint(f[6], "ResponseTime"), "ResponseTime") / kTicksPerMicrosecond;
  out.volume.assign(f[1]);
  out.volume += '_';
  out.volume += std::to_string(disk);
  return RowOutcome::kRecord;
}

}  // namespace

const CsvFormat kMsrCsv{TraceFormat::kMsrCsv, "", 7, parse_msr};

}  // namespace tierwise::trace
