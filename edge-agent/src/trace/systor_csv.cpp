// SYSTOR'17 enterprise VDI traces (SNIA IOTTA 4964):
//   Timestamp,Response,IOType,LUN,Offset,Size
// Timestamp: Unix epoch seconds with a fraction; Response: seconds; IOType: R
// or W; Offset, Size: bytes. Rows are not sorted by time. Volume name:
// "lun<LUN>".
#include "trace/csv_format.hpp"
#include "trace/field_parse.hpp"

namespace tierwise::trace {
namespace {

RowOutcome parse_systor(const CsvRow& row, IoRecord& out) {
  const auto& f = row.fields;
  if (f[2] == "R") {
    out.direction = Direction::kRead;
  } else if (f[2] == "W") {
    out.direction = Direction::kWrite;
  } else {
    throw MalformedRecord("field 'IOType': '" + std::string(f[2]) + "' is not R or W");
  }
  out.time_us = parse_seconds_as_us(f[0], "Timestamp");
  out.response_time_us = parse_seconds_as_us(f[1], "Response");
  uint64_t lun = parse_uint(f[3], "LUN");
  out.offset_bytes = parse_uint(f[4], "Offset");
  out.length_bytes = checked_length(parse_uint(f[5], "Size"), "Size");
  out.volume.assign("lun");
  out.volume += std::to_string(lun);
  return RowOutcome::kRecord;
}

}  // namespace

const CsvFormat kSystorCsv{TraceFormat::kSystorCsv, "Timestamp,Response,IOType,LUN,Offset,Size",
                           6, parse_systor};

}  // namespace tierwise::trace
