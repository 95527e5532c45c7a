#include "cli/inspect_command.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "analysis/trace_summary.hpp"
#include "cli/trace_input.hpp"
#include "trace/blocks.hpp"

namespace tierwise::cli {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;
// Volumes listed in the text output (busiest first); --json lists all.
constexpr size_t kVolumesShown = 10;

struct InspectOptions {
  TraceArgument trace;
  bool json = false;
};

nlohmann::ordered_json stats_json(const analysis::WorkloadStats& s) {
  return {{"records", s.operations()},
          {"reads", s.reads},
          {"writes", s.writes},
          {"read_bytes", s.read_bytes},
          {"write_bytes", s.write_bytes},
          {"bytes", s.read_bytes + s.write_bytes},
          {"first_time_us", s.first_time_us},
          {"last_time_us", s.last_time_us},
          {"time_span_s", s.time_span_s()},
          {"distinct_blocks", s.distinct_blocks},
          {"distinct_read_blocks", s.distinct_read_blocks},
          {"distinct_write_blocks", s.distinct_write_blocks},
          {"wss_bytes", s.wss_bytes()},
          {"wss_mib", static_cast<double>(s.wss_bytes()) / kMiB},
          {"alignment", {{"start_sector_ios", s.start_sector_ios},
                         {"misaligned_ios", s.misaligned_ios()},
                         {"misaligned_bytes", s.misaligned_bytes},
                         {"blocks_issued", s.blocks_issued},
                         {"blocks_aligned", s.blocks_aligned}}}};
}

// "alignment" line: the share of I/Os and of bytes that start off a 4 KiB
// boundary, the sector most of them start at, and the extra 4 KiB blocks the
// tier handles because of it (telemetry/alignment.hpp).
std::string alignment_text(const analysis::WorkloadStats& s) {
  const uint64_t bytes = s.read_bytes + s.write_bytes;
  if (s.operations() == 0 || bytes == 0 || s.blocks_aligned == 0) return "no I/O";
  char text[200];
  const double ios = 100.0 * static_cast<double>(s.misaligned_ios()) / static_cast<double>(s.operations());
  const double byte_share = 100.0 * static_cast<double>(s.misaligned_bytes) / static_cast<double>(bytes);
  const double extra = 100.0 * (static_cast<double>(s.blocks_issued) / static_cast<double>(s.blocks_aligned) - 1);
  int n = std::snprintf(text, sizeof text, "%.1f %% of I/Os (%.1f %% of bytes) start off a 4 KiB boundary", ios, byte_share);
  if (s.misaligned_ios() > 0) {
    const auto top = std::max_element(s.start_sector_ios.begin() + 1, s.start_sector_ios.end());
    const double top_share = 100.0 * static_cast<double>(*top) / static_cast<double>(s.misaligned_ios());
    n += std::snprintf(text + n, sizeof text - static_cast<size_t>(n), ", %.0f %% of them %td bytes in",
                       top_share, (top - s.start_sector_ios.begin()) * 512);
  }
  std::snprintf(text + n, sizeof text - static_cast<size_t>(n), "; %.1f %% more 4 KiB blocks than aligned", extra);
  return text;
}

void print_json(const trace::TraceReader& reader, const std::string& path,
                const analysis::TraceSummary& summary) {
  nlohmann::ordered_json out = {{"file", path},
                                {"format", trace::trace_format_name(reader.format())},
                                {"compression", trace::compression_name(reader.compression())},
                                {"malformed_records", reader.malformed_records()},
                                {"skipped_records", reader.skipped_records()}};
  out.update(stats_json(summary.total()));
  nlohmann::ordered_json volumes = nlohmann::ordered_json::array();
  for (const analysis::VolumeSummary& v : summary.volumes()) {
    nlohmann::ordered_json volume = {{"name", v.volume}};
    volume.update(stats_json(v.stats));
    volumes.push_back(std::move(volume));
  }
  out["volume_count"] = volumes.size();
  out["volumes"] = std::move(volumes);
  std::cout << out.dump(2) << '\n';
}

std::string mib(uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / kMiB);
  return text;
}

void print_text(const trace::TraceReader& reader, const std::string& path,
                const analysis::TraceSummary& summary) {
  analysis::WorkloadStats t = summary.total();
  std::vector<analysis::VolumeSummary> volumes = summary.volumes();
  std::cout << "file          " << path << '\n'
            << "format        " << trace::trace_format_name(reader.format()) << " (compression "
            << trace::compression_name(reader.compression()) << ")\n"
            << "records       " << t.operations() << " (reads " << t.reads << ", writes "
            << t.writes << ")";
  if (reader.malformed_records() > 0) std::cout << ", malformed " << reader.malformed_records();
  if (reader.skipped_records() > 0) {
    std::cout << ", skipped non-data commands " << reader.skipped_records();
  }
  std::cout << '\n'
            << "bytes         " << t.read_bytes + t.write_bytes << " = "
            << mib(t.read_bytes + t.write_bytes) << " (read " << mib(t.read_bytes) << ", write "
            << mib(t.write_bytes) << ")\n";
  char span[32];
  std::snprintf(span, sizeof span, "%.2f s", t.time_span_s());
  std::cout << "time span     " << span << '\n'
            << "working set   " << t.distinct_blocks << " distinct 4 KiB blocks = "
            << mib(t.wss_bytes()) << " (read " << mib(t.distinct_read_blocks * trace::kBlockBytes) << ", write "
            << mib(t.distinct_write_blocks * trace::kBlockBytes) << ")\n"
            << "alignment     " << alignment_text(t) << '\n'
            << "volumes       " << volumes.size() << '\n';
  std::stable_sort(volumes.begin(), volumes.end(), [](const auto& a, const auto& b) {
    return a.stats.operations() > b.stats.operations();
  });
  if (volumes.size() > kVolumesShown) {
    std::cout << "busiest " << kVolumesShown << " volumes (all of them with --json):\n";
    volumes.resize(kVolumesShown);
  }
  for (const analysis::VolumeSummary& v : volumes) {
    std::cout << "  " << v.volume << ": " << v.stats.operations() << " I/Os (reads "
              << v.stats.reads << ", writes " << v.stats.writes << "), working set "
              << mib(v.stats.wss_bytes()) << '\n';
  }
}

void run_inspect(const InspectOptions& options) {
  TraceInput input(options.trace);
  analysis::TraceSummary summary;
  trace::IoRecord record;
  while (input.reader().next(record)) summary.add(record);
  if (options.json) {
    print_json(input.reader(), options.trace.path, summary);
  } else {
    print_text(input.reader(), options.trace.path, summary);
  }
  input.finish();
}

}  // namespace

void register_inspect_command(CLI::App& app) {
  auto options = std::make_shared<InspectOptions>();
  CLI::App* command = app.add_subcommand(
      "inspect",
      "Summarise a trace exactly: records, reads/writes, bytes, time span, working set "
      "(distinct 4 KiB blocks) and volumes. Block addresses stay on this host.");
  add_trace_argument(*command, options->trace);
  command->add_flag("--json", options->json, "Print JSON (every volume) instead of text");
  command->callback([options] { run_inspect(*options); });
}

}  // namespace tierwise::cli
