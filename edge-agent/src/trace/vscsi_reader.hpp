// VMware vSCSI binary traces (as read by libCacheSim's vscsi reader).
//
// Little-endian records, no file header:
//   v1, 32 bytes: u32 sn, u32 len, u32 nSG, u16 cmd, u16 ver, u64 lbn, u64 ts
//   v2, 40 bytes: u16 cmd, u16 ver, u32 sn, u32 len, u32 nSG, u64 lbn, u64 ts, u64 rt
// len in bytes, lbn in 512-byte sectors, ts (and rt) in microseconds; the
// version is ver >> 8.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "trace/input_buffer.hpp"
#include "trace/trace_reader.hpp"

namespace tierwise::trace {

// The vscsi version (1 or 2) whose `ver` field matches in the first records
// of `head` (two records, as libCacheSim checks, or one if the file is
// shorter), or nullopt.
std::optional<int> detect_vscsi_version(std::string_view head);

std::unique_ptr<TraceReader> make_vscsi_reader(std::unique_ptr<InputBuffer> input, int version,
                                               Compression compression, const std::string& path,
                                               ErrorSink sink);

}  // namespace tierwise::trace
