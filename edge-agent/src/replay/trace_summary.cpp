#include "replay/trace_summary.hpp"

#include <cstdio>

namespace tierwise::replay {
namespace {

std::string mib(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return buf;
}

std::string percent(uint64_t part, uint64_t whole) {
  if (whole == 0) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", 100.0 * static_cast<double>(part) / whole);
  return buf;
}

std::string rate(double count, double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", seconds > 0 ? count / seconds : 0.0);
  return buf;
}

}  // namespace

double hit_ratio(const TraceSummary& s) {
  const uint64_t total = s.hits + s.misses;
  return total == 0 ? -1 : static_cast<double>(s.hits) / total;
}

void print_summary(std::ostream& out, const TraceSummary& s, uint64_t tier_bytes,
                   const std::string& eviction) {
  out << s.trace << " (" << s.format << ")";
  if (!s.error.empty()) out << ": STOPPED: " << s.error;
  out << "\n  " << s.records << " records (" << s.malformed << " malformed skipped), "
      << s.volumes << (s.volumes == 1 ? " volume, " : " volumes, ") << s.trace_seconds
      << " s of trace time replayed in " << s.wall_seconds << " s: "
      << rate(static_cast<double>(s.records), s.wall_seconds) << " records/s\n"
      << "  reads " << s.reads << " (" << mib(s.read_bytes) << "), writes " << s.writes << " ("
      << mib(s.write_bytes) << ")" << (s.io_errors ? ", I/O errors " + std::to_string(s.io_errors) : "")
      << "\n  cache (write-through, " << eviction << ", " << mib(tier_bytes) << " RAM tier per volume): "
      << s.hits << " hits, " << s.misses << " misses (4 KiB blocks), hit ratio "
      << percent(s.hits, s.hits + s.misses) << ", read hit ratio "
      << percent(s.read_hits, s.read_hits + s.read_misses) << ", populated "
      << mib(s.population_bytes) << ", evicted " << mib(s.eviction_bytes)
      << ", filled on partial writes " << mib(s.fill_bytes) << ", not populated (sequential) "
      << mib(s.bypass_bytes) << "\n"
      << "  telemetry: " << s.intervals << " intervals, " << s.references
      << " sampled references; export: " << s.batches_sent << " batches sent, "
      << s.batches_rejected << " rejected, " << s.batches_failed << " failed";
  if (!s.export_problem.empty()) out << " (" << s.export_problem << ")";
  out << "\n";
}

nlohmann::json summary_json(const TraceSummary& s) {
  nlohmann::json j = {
      {"trace", s.trace},
      {"format", s.format},
      {"records", s.records},
      {"malformed", s.malformed},
      {"volumes", s.volumes},
      {"reads", s.reads},
      {"writes", s.writes},
      {"read_bytes", s.read_bytes},
      {"write_bytes", s.write_bytes},
      {"hits", s.hits},
      {"misses", s.misses},
      {"read_hits", s.read_hits},
      {"read_misses", s.read_misses},
      {"population_bytes", s.population_bytes},
      {"eviction_bytes", s.eviction_bytes},
      {"fill_bytes", s.fill_bytes},
      {"bypass_bytes", s.bypass_bytes},
      {"io_errors", s.io_errors},
      {"references", s.references},
      {"intervals", s.intervals},
      {"batches_sent", s.batches_sent},
      {"batches_rejected", s.batches_rejected},
      {"batches_failed", s.batches_failed},
      {"trace_seconds", s.trace_seconds},
      {"wall_seconds", s.wall_seconds},
  };
  const double ratio = hit_ratio(s);
  j["hit_ratio"] = ratio < 0 ? nlohmann::json(nullptr) : nlohmann::json(ratio);
  if (!s.error.empty()) j["error"] = s.error;
  if (!s.export_problem.empty()) j["export_problem"] = s.export_problem;
  return j;
}

}  // namespace tierwise::replay
