// Internal to the trace library: how one CSV trace format maps a row to an
// IoRecord. One definition per format (cloudphysics_csv.cpp, msr_csv.cpp, ...).
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "trace/record.hpp"
#include "trace/trace_reader.hpp"

namespace tierwise::trace {

// Maximum number of fields of any supported CSV format.
inline constexpr size_t kMaxCsvFields = 7;

struct CsvRow {
  // Exactly CsvFormat::field_count fields.
  std::span<const std::string_view> fields;
  // Volume name for formats without a volume column (see volume_name_from_path).
  std::string_view default_volume;
};

enum class RowOutcome { kRecord, kSkipped };

struct CsvFormat {
  TraceFormat format;
  // The header line, or empty when the format has none. A first line equal to
  // it is skipped; a file without it is read too.
  std::string_view header;
  size_t field_count;
  // Fills `out` from `row` (kRecord) or says the row carries no block I/O
  // (kSkipped). Throws MalformedRecord naming the bad field.
  RowOutcome (*parse)(const CsvRow& row, IoRecord& out);
};

extern const CsvFormat kCloudPhysicsCsv;
extern const CsvFormat kMsrCsv;
extern const CsvFormat kSystorCsv;
extern const CsvFormat kTencentCsv;

}  // namespace tierwise::trace
