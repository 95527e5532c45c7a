// Trace records: the common shape every trace reader produces.
//
// Shared contract between the trace readers (src/trace) and every consumer
// (replay engine, telemetry, sampling, exact MRC). Units are spelled out in
// the field names.
#pragma once

#include <cstdint>
#include <string>

namespace tierwise::trace {

enum class Direction : uint8_t { kRead = 0, kWrite = 1 };

// One I/O of a block trace.
struct IoRecord {
  // Time of the I/O in microseconds since the trace's own epoch (uptime for
  // vscsi, Unix epoch for the SNIA traces). Readers keep the trace's order;
  // consumers that need time order sort or tolerate small inversions.
  int64_t time_us = 0;
  // Byte offset on the volume.
  uint64_t offset_bytes = 0;
  // Length in bytes (> 0).
  uint32_t length_bytes = 0;
  Direction direction = Direction::kRead;
  // Response time recorded by the trace, microseconds; -1 when the format has none.
  int64_t response_time_us = -1;
  // Volume name inside the trace (e.g. "cbs-1234" for Tencent VolumeID 1234,
  // "lun0" for SYSTOR, "hm_0" for MSR). Readers of single-volume formats use the
  // trace file's stem.
  std::string volume;
};

}  // namespace tierwise::trace
