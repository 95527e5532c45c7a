#include "trace/trace_reader.hpp"

#include <array>
#include <filesystem>

#include "trace/csv_trace_reader.hpp"
#include "trace/input_buffer.hpp"
#include "trace/vscsi_reader.hpp"

namespace tierwise::trace {
namespace {

// Bytes looked at to recognise a format: two vscsi v2 records, or the first
// CSV line (longer first lines are not CSV traces).
constexpr size_t kVscsiProbeBytes = 80;
constexpr size_t kLineProbeBytes = 4096;

// CSV formats in detection order. A header match wins; otherwise the first
// format that decodes the first line. Headerless CloudPhysics rows come last:
// their hex opcode column would accept some Tencent rows as non-data commands.
constexpr std::array<const CsvFormat*, 4> kCsvFormats = {&kMsrCsv, &kSystorCsv, &kTencentCsv,
                                                         &kCloudPhysicsCsv};

const CsvFormat* csv_format_of(TraceFormat format) {
  for (const CsvFormat* csv : kCsvFormats) {
    if (csv->format == format) return csv;
  }
  return nullptr;
}

std::string_view first_line(InputBuffer& input) {
  std::string_view head = input.peek(kLineProbeBytes);
  std::string_view line = head.substr(0, head.find('\n'));
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

const CsvFormat* detect_csv_format(std::string_view line) {
  for (const CsvFormat* csv : kCsvFormats) {
    if (!csv->header.empty() && line == csv->header) return csv;
  }
  for (const CsvFormat* csv : kCsvFormats) {
    if (csv_line_matches(*csv, line)) return csv;
  }
  return nullptr;
}

std::string printable_prefix(std::string_view line) {
  constexpr size_t kShown = 80;
  std::string shown;
  for (char c : line.substr(0, kShown)) {
    shown += (c >= 0x20 && c < 0x7f) ? c : '?';
  }
  if (line.size() > kShown) shown += "...";
  return shown;
}

}  // namespace

const std::vector<TraceFormat>& all_trace_formats() {
  static const std::vector<TraceFormat> formats = {
      TraceFormat::kVscsi, TraceFormat::kCloudPhysicsCsv, TraceFormat::kMsrCsv,
      TraceFormat::kSystorCsv, TraceFormat::kTencentCsv};
  return formats;
}

std::string_view trace_format_name(TraceFormat format) {
  switch (format) {
    case TraceFormat::kVscsi:
      return "vscsi";
    case TraceFormat::kCloudPhysicsCsv:
      return "cloudphysics-csv";
    case TraceFormat::kMsrCsv:
      return "msr-csv";
    case TraceFormat::kSystorCsv:
      return "systor-csv";
    case TraceFormat::kTencentCsv:
      return "tencent-csv";
  }
  return "unknown";
}

std::optional<TraceFormat> parse_trace_format(std::string_view name) {
  for (TraceFormat format : all_trace_formats()) {
    if (trace_format_name(format) == name) return format;
  }
  return std::nullopt;
}

TraceReader::TraceReader(TraceFormat format, Compression compression, std::string path,
                         ErrorSink sink)
    : format_(format), compression_(compression), path_(std::move(path)), sink_(std::move(sink)) {}

void TraceReader::report(TraceError::Unit unit, uint64_t number, std::string reason) {
  ++malformed_;
  if (sink_) sink_(TraceError{path_, unit, number, std::move(reason)});
}

std::string volume_name_from_path(const std::string& path) {
  std::filesystem::path name = std::filesystem::path(path).filename();
  for (const char* suffix : {".gz", ".bz2", ".vscsi", ".csv"}) {
    if (name.extension() == suffix) name = name.stem();
  }
  return name.string();
}

std::unique_ptr<TraceReader> open_trace(const std::string& path, const TraceOptions& options) {
  Compression compression = Compression::kNone;
  auto input = std::make_unique<InputBuffer>(open_byte_source(path, &compression));
  std::optional<int> vscsi_version = detect_vscsi_version(input->peek(kVscsiProbeBytes));
  if (input->peek(1).empty() && !input->stream_error().empty()) {
    throw TraceOpenError(path + ": " + input->stream_error());
  }
  std::optional<TraceFormat> format = options.format;
  if (!format && vscsi_version) format = TraceFormat::kVscsi;

  if (format == TraceFormat::kVscsi) {
    if (!vscsi_version) {
      throw TraceOpenError(path + ": not a vscsi trace (the version field of its first records "
                                  "is neither v1 nor v2)");
    }
    return make_vscsi_reader(std::move(input), *vscsi_version, compression, path,
                             options.on_error);
  }

  std::string_view line = first_line(*input);
  const CsvFormat* csv = format ? csv_format_of(*format) : detect_csv_format(line);
  if (csv == nullptr) {
    if (input->peek(1).empty()) throw TraceOpenError(path + ": file is empty");
    std::string names;
    for (TraceFormat known : all_trace_formats()) {
      names += names.empty() ? "" : ", ";
      names += trace_format_name(known);
    }
    throw TraceOpenError(path + ": cannot recognise the trace format (first line: \"" +
                         printable_prefix(line) + "\"); known formats: " + names +
                         "; pass --format to choose one");
  }
  return make_csv_reader(std::move(input), *csv, compression, path, options.on_error);
}

}  // namespace tierwise::trace
