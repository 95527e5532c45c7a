// Internal to the trace library: the line loop shared by every CSV format.
#pragma once

#include <memory>
#include <string>

#include "trace/csv_format.hpp"
#include "trace/input_buffer.hpp"
#include "trace/trace_reader.hpp"

namespace tierwise::trace {

// True when `line` is the format's header or a row it decodes into a record
// (used to recognise the format from a file's first line).
bool csv_line_matches(const CsvFormat& format, std::string_view line);

std::unique_ptr<TraceReader> make_csv_reader(std::unique_ptr<InputBuffer> input,
                                             const CsvFormat& format, Compression compression,
                                             const std::string& path, ErrorSink sink);

}  // namespace tierwise::trace
