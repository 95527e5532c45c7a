// CloudPhysics CSV (libCacheSim data/cloudPhysicsIO.csv):
//   version,time,op,size,lbn
// time: seconds (the vscsi timestamp / 1e6, truncated); op: SCSI opcode in hex
// (28 = READ(10), 2a = WRITE(10)); size: bytes; lbn: 512-byte sectors.
#include "trace/csv_format.hpp"
#include "trace/field_parse.hpp"
#include "trace/scsi_opcode.hpp"

namespace tierwise::trace {
namespace {

RowOutcome parse_cloudphysics(const CsvRow& row, IoRecord& out) {
  const auto& f = row.fields;
  parse_uint(f[0], "version");
  std::optional<Direction> direction = scsi_data_direction(parse_hex(f[2], "op"));
  if (!direction) return RowOutcome::kSkipped;
  out.time_us = parse_seconds_as_us(f[1], "time");
  out.length_bytes = checked_length(parse_uint(f[3], "size"), "size");
  out.offset_bytes = checked_multiply(parse_uint(f[4], "lbn"), 512, "lbn");
  out.direction = *direction;
  out.response_time_us = -1;
  out.volume.assign(row.default_volume);
  return RowOutcome::kRecord;
}

}  // namespace

const CsvFormat kCloudPhysicsCsv{TraceFormat::kCloudPhysicsCsv, "version,time,op,size,lbn", 5,
                                 parse_cloudphysics};

}  // namespace tierwise::trace
