#include "replay/spool_report.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "common/exit_code.hpp"

namespace tierwise::replay {

std::string resolve_spool_dir(const std::string& spool_dir, const std::string& key_file) {
  if (!spool_dir.empty()) return spool_dir;
  if (const char* env = std::getenv("TIERWISE_AGENT_SPOOL_DIR"); env != nullptr && *env != '\0') {
    return env;
  }
  const std::filesystem::path parent = std::filesystem::path(key_file).parent_path();
  return (parent.empty() ? std::filesystem::path("spool") : parent / "spool").string();
}

void print_collector_summary(std::ostream& out, const exporter::HttpSender& sender, size_t streams) {
  const exporter::HttpSender* c = sender.collector();
  if (c == nullptr) return;
  exporter::DeliveryStats total;
  for (size_t i = 0; i < streams; ++i) {
    const exporter::DeliveryStats s = c->stats(i);
    total.sent += s.sent;
    total.rejected += s.rejected;
    total.failed += s.failed;
    if (total.first_problem.empty()) total.first_problem = s.first_problem;
  }
  out << "OpenTelemetry collector: " << total.sent << " metric batches sent, " << total.rejected << " rejected, "
      << total.failed << " failed" << (total.first_problem.empty() ? "" : " (" + total.first_problem + ")") << "\n";
}

void print_spool_summary(std::ostream& out, const exporter::SpoolStats& s) {
  out << "spool " << s.directory << ": " << s.spooled << " batches spooled, " << s.sent_from_spool
      << " sent from the spool, " << s.rejected << " rejected, " << s.dropped
      << " dropped at the size bound, " << s.left << " left";
  if (!s.first_problem.empty()) out << " (" << s.first_problem << ")";
  out << "\n";
}

void add_spool_json(nlohmann::json& j, const exporter::SpoolStats& s) {
  j["spool_dir"] = s.directory;
  j["spooled_batches"] = s.spooled;
  j["sent_from_spool"] = s.sent_from_spool;
  j["spool_rejected_batches"] = s.rejected;
  j["spool_dropped_batches"] = s.dropped;
  j["spool_left_batches"] = s.left;
}

int spool_exit_code(const exporter::SpoolStats& s) {
  if (s.rejected > 0) return kExitRejected;
  if (s.left > 0) {
    std::fprintf(stderr, "tierwise-agent: %llu batches left in the spool %s; they are sent by the next run\n",
                 static_cast<unsigned long long>(s.left), s.directory.c_str());
  }
  return s.left > 0 || s.dropped > 0 ? kExitUndelivered : kExitOk;
}

}  // namespace tierwise::replay
