// The trace argument shared by the subcommands that read a trace: a path, an
// optional --format, and malformed-record reporting on stderr.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "trace/trace_reader.hpp"

namespace tierwise::cli {

struct TraceArgument {
  std::string path;
  // A trace format name, or "auto" to detect it from the content.
  std::string format = "auto";
};

// Values --format accepts: "auto" and every trace format name.
std::vector<std::string> trace_format_choices();

// Adds the positional TRACE argument and --format to `command`.
void add_trace_argument(CLI::App& command, TraceArgument& argument);

// An open trace. Each malformed record is printed to stderr as
// "<file>:<line>: <reason>" (the first kShownErrors of them) and skipped.
class TraceInput {
 public:
  static constexpr uint64_t kShownErrors = 20;

  // Throws trace::TraceOpenError when the trace cannot be opened or recognised.
  explicit TraceInput(const TraceArgument& argument);
  TraceInput(const TraceInput&) = delete;
  TraceInput& operator=(const TraceInput&) = delete;

  trace::TraceReader& reader() { return *reader_; }

  // Call after the output is written: when records were malformed, prints
  // their count to stderr and throws CLI::RuntimeError(kExitMalformed).
  void finish() const;

 private:
  std::string path_;
  std::unique_ptr<trace::TraceReader> reader_;
};

// The one volume a subcommand reads (`mrc`, `block-refs`): the one named with
// --volume, or else the trace's only volume.
class VolumeChoice {
 public:
  // `command`: the subcommand's name, for messages; `volume`: --volume or "".
  VolumeChoice(std::string command, std::string volume)
      : command_(std::move(command)), volume_(std::move(volume)) {}

  // Whether `record` is of the chosen volume. A second volume in a trace read
  // without --volume is a usage error: prints both names, throws
  // CLI::RuntimeError(kExitUsage).
  bool keep(const trace::IoRecord& record);
  // At the end: when no record was kept, prints why and throws
  // CLI::RuntimeError(kExitUsage).
  void require_records(uint64_t kept) const;
  // Prints "tierwise-agent <command>: <message>", throws CLI::RuntimeError(kExitUsage).
  [[noreturn]] void usage_error(const std::string& message) const;

 private:
  std::string command_;
  std::string volume_;
  std::string first_volume_;
};

}  // namespace tierwise::cli
