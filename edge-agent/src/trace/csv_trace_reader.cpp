#include "trace/csv_trace_reader.hpp"

#include <array>

#include "trace/field_parse.hpp"

namespace tierwise::trace {
namespace {

class CsvTraceReader final : public TraceReader {
 public:
  CsvTraceReader(std::unique_ptr<InputBuffer> input, const CsvFormat& format,
                 Compression compression, const std::string& path, ErrorSink sink)
      : TraceReader(format.format, compression, path, std::move(sink)),
        input_(std::move(input)),
        format_(format),
        default_volume_(volume_name_from_path(path)) {}

  bool next(IoRecord& out) override {
    std::string_view line;
    while (input_->next_line(line)) {
      ++line_number_;
      if (line.empty() || (line_number_ == 1 && line == format_.header)) continue;
      size_t count = split_fields(line, fields_);
      if (count != format_.field_count) {
        report(TraceError::Unit::kLine, line_number_,
               "expected " + std::to_string(format_.field_count) + " fields, found " +
                   std::to_string(count));
        continue;
      }
      try {
        CsvRow row{std::span(fields_.data(), count), default_volume_};
        if (format_.parse(row, out) == RowOutcome::kSkipped) {
          ++skipped_;
          continue;
        }
      } catch (const MalformedRecord& e) {
        report(TraceError::Unit::kLine, line_number_, e.what());
        continue;
      }
      ++records_;
      return true;
    }
    if (!input_->stream_error().empty() && !stream_error_reported_) {
      stream_error_reported_ = true;
      report(TraceError::Unit::kLine, line_number_ + 1,
             input_->stream_error() + "; the rest of the file is lost");
    }
    return false;
  }

 private:
  std::unique_ptr<InputBuffer> input_;
  const CsvFormat& format_;
  std::string default_volume_;
  std::array<std::string_view, kMaxCsvFields> fields_{};
  uint64_t line_number_ = 0;
  bool stream_error_reported_ = false;
};

}  // namespace

bool csv_line_matches(const CsvFormat& format, std::string_view line) {
  if (!format.header.empty() && line == format.header) return true;
  std::array<std::string_view, kMaxCsvFields> fields{};
  size_t count = split_fields(line, fields);
  if (count != format.field_count) return false;
  IoRecord record;
  try {
    return format.parse({std::span(fields.data(), count), "probe"}, record) == RowOutcome::kRecord;
  } catch (const MalformedRecord&) {
    return false;
  }
}

std::unique_ptr<TraceReader> make_csv_reader(std::unique_ptr<InputBuffer> input,
                                             const CsvFormat& format, Compression compression,
                                             const std::string& path, ErrorSink sink) {
  return std::make_unique<CsvTraceReader>(std::move(input), format, compression, path,
                                          std::move(sink));
}

}  // namespace tierwise::trace
