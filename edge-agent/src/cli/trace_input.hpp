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
  // their count to stderr and throws CLI::RuntimeError(kExitMalformedRecords).
  void finish() const;

 private:
  std::string path_;
  std::unique_ptr<trace::TraceReader> reader_;
};

}  // namespace tierwise::cli
