// Trace readers: every supported block-trace format, decoded into IoRecords.
//
// Formats (field layouts and units: shared/traces/README.md):
//   vscsi             VMware vSCSI binary, v1 (32-byte records) and v2 (40-byte
//                     records with a response time), as read by libCacheSim
//   cloudphysics-csv  version,time,op,size,lbn (seconds, hex SCSI opcode, bytes, sectors)
//   msr-csv           MSR Cambridge / SNIA IOTTA: Timestamp,Hostname,DiskNumber,
//                     Type,Offset,Size,ResponseTime (FILETIME, bytes, 100 ns ticks)
//   systor-csv        SYSTOR'17: Timestamp,Response,IOType,LUN,Offset,Size
//                     (seconds, seconds, R/W, bytes, bytes)
//   tencent-csv       Tencent CBS: Timestamp,Offset,Size,IOType,VolumeID
//                     (seconds, sectors, sectors, 0=read/1=write, integer)
// gzip and bzip2 files are decompressed while streaming.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "trace/byte_source.hpp"
#include "trace/record.hpp"
#include "trace/trace_error.hpp"

namespace tierwise::trace {

enum class TraceFormat { kVscsi, kCloudPhysicsCsv, kMsrCsv, kSystorCsv, kTencentCsv };

// Every format, in the order shown to users.
const std::vector<TraceFormat>& all_trace_formats();
// "vscsi", "cloudphysics-csv", "msr-csv", "systor-csv", "tencent-csv".
std::string_view trace_format_name(TraceFormat format);
// The format named `name` (as above), or nullopt.
std::optional<TraceFormat> parse_trace_format(std::string_view name);

// Reads the I/Os of one trace file in the file's order.
class TraceReader {
 public:
  virtual ~TraceReader() = default;

  // Decodes the next well-formed record into `out` (reusing its storage).
  // Returns false at the end of the trace. Malformed records (broken CSV
  // lines, a truncated binary tail) go to the error sink and are skipped; so
  // does a read error or a corrupt/truncated compressed stream, which ends
  // the trace early (the records before it are kept).
  virtual bool next(IoRecord& out) = 0;

  TraceFormat format() const { return format_; }
  Compression compression() const { return compression_; }
  // Records returned by next() so far.
  uint64_t records() const { return records_; }
  // Records reported to the error sink and skipped.
  uint64_t malformed_records() const { return malformed_; }
  // Well-formed records that carry no block I/O (SCSI commands other than
  // READ/WRITE in vscsi and CloudPhysics traces), skipped silently.
  uint64_t skipped_records() const { return skipped_; }

 protected:
  TraceReader(TraceFormat format, Compression compression, std::string path, ErrorSink sink);
  void report(TraceError::Unit unit, uint64_t number, std::string reason);

  uint64_t records_ = 0;
  uint64_t skipped_ = 0;

 private:
  TraceFormat format_;
  Compression compression_;
  std::string path_;
  ErrorSink sink_;
  uint64_t malformed_ = 0;
};

struct TraceOptions {
  // Format to use; nullopt = detect it from the content.
  std::optional<TraceFormat> format;
  // Called for each malformed record; may be empty (records are still counted).
  ErrorSink on_error;
};

// Opens a trace file. Compression is detected from magic bytes; the format
// from the content (vscsi version field, then the first CSV line: a known
// header, or a row that parses as exactly one format) unless options.format
// says otherwise. Throws TraceOpenError (naming the file) when the file cannot
// be opened, its first bytes cannot be read or decompressed, or its format
// cannot be recognised.
std::unique_ptr<TraceReader> open_trace(const std::string& path, const TraceOptions& options = {});

// Volume name for single-volume traces: the file name without directories,
// compression suffix (.gz, .bz2) and format suffix (".vscsi", ".csv").
std::string volume_name_from_path(const std::string& path);

}  // namespace tierwise::trace
