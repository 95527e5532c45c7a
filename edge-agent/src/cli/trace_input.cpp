#include "cli/trace_input.hpp"

#include <iostream>

#include "common/exit_code.hpp"

namespace tierwise::cli {
namespace {

void print_error(const trace::TraceError& error, uint64_t* shown) {
  if (*shown < TraceInput::kShownErrors) std::cerr << error.to_string() << '\n';
  ++*shown;
}

}  // namespace

std::vector<std::string> trace_format_choices() {
  std::vector<std::string> names = {"auto"};
  for (trace::TraceFormat format : trace::all_trace_formats()) {
    names.emplace_back(trace::trace_format_name(format));
  }
  return names;
}

void add_trace_argument(CLI::App& command, TraceArgument& argument) {
  command.add_option("trace", argument.path, "Trace file (plain, .gz or .bz2; detected from content)")
      ->required()
      ->check(CLI::ExistingFile);
  command.add_option("--format", argument.format, "Trace format (default: detected from content)")
      ->check(CLI::IsMember(trace_format_choices()))
      ->capture_default_str();
}

TraceInput::TraceInput(const TraceArgument& argument) : path_(argument.path) {
  trace::TraceOptions options;
  if (argument.format != "auto") options.format = trace::parse_trace_format(argument.format);
  auto shown = std::make_shared<uint64_t>(0);
  options.on_error = [shown](const trace::TraceError& error) { print_error(error, shown.get()); };
  reader_ = trace::open_trace(argument.path, options);
}

void TraceInput::finish() const {
  uint64_t malformed = reader_->malformed_records();
  if (malformed == 0) return;
  std::cerr << path_ << ": " << malformed << " malformed record(s) skipped";
  if (malformed > kShownErrors) std::cerr << " (first " << kShownErrors << " shown)";
  std::cerr << '\n';
  throw CLI::RuntimeError(kExitMalformed);
}

bool VolumeChoice::keep(const trace::IoRecord& record) {
  if (!volume_.empty()) return record.volume == volume_;
  if (first_volume_.empty()) {
    first_volume_ = record.volume;
  } else if (record.volume != first_volume_) {
    usage_error("the trace holds several volumes ('" + first_volume_ + "', '" + record.volume +
                "', ...); choose one with --volume (list them with `tierwise-agent inspect`)");
  }
  return true;
}

void VolumeChoice::require_records(uint64_t kept) const {
  if (kept > 0) return;
  usage_error(volume_.empty() ? "the trace has no I/O records"
                              : "volume '" + volume_ + "' has no I/O in the trace");
}

void VolumeChoice::usage_error(const std::string& message) const {
  std::cerr << "tierwise-agent " << command_ << ": " << message << '\n';
  throw CLI::RuntimeError(kExitUsage);
}

}  // namespace tierwise::cli
