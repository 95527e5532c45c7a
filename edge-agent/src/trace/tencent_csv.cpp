// Tencent Cloud Block Storage traces (SNIA IOTTA 27917), no header:
//   Timestamp,Offset,Size,IOType,VolumeID
// Timestamp: Unix epoch seconds; Offset, Size: 512-byte sectors; IOType:
// 0 = read, 1 = write. Volume name: "cbs-<VolumeID>".
#include "trace/csv_format.hpp"
#include "trace/field_parse.hpp"

namespace tierwise::trace {
namespace {

constexpr uint64_t kSectorBytes = 512;

RowOutcome parse_tencent(const CsvRow& row, IoRecord& out) {
  const auto& f = row.fields;
  if (f[3] == "0") {
    out.direction = Direction::kRead;
  } else if (f[3] == "1") {
    out.direction = Direction::kWrite;
  } else {
    throw MalformedRecord("field 'IOType': '" + std::string(f[3]) + "' is not 0 or 1");
  }
  out.time_us = parse_seconds_as_us(f[0], "Timestamp");
  out.offset_bytes = checked_multiply(parse_uint(f[1], "Offset"), kSectorBytes, "Offset");
  out.length_bytes =
      checked_length(checked_multiply(parse_uint(f[2], "Size"), kSectorBytes, "Size"), "Size");
  uint64_t volume_id = parse_uint(f[4], "VolumeID");
  out.response_time_us = -1;
  out.volume.assign("cbs-");
  out.volume += std::to_string(volume_id);
  return RowOutcome::kRecord;
}

}  // namespace

const CsvFormat kTencentCsv{TraceFormat::kTencentCsv, "", 5, parse_tencent};

}  // namespace tierwise::trace
