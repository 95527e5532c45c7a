#include "cli/import_vscsistats_command.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/export_options.hpp"
#include "common/exit_code.hpp"
#include "common/version.hpp"
#include "export/batches.hpp"
#include "export/http_sender.hpp"
#include "export/otlp_metrics.hpp"
#include "sampling/keyed_hash.hpp"
#include "sampling/tenant_key.hpp"
#include "vscsistats/import_interval.hpp"
#include "vscsistats/vscsistats_csv.hpp"

namespace tierwise::cli {
namespace {

// The imported histograms count in one interval of this length that ends at
// --at: vscsiStats does not record how long it collected.
constexpr uint64_t kIntervalNanos = 10'000'000'000ull;
constexpr auto kDrainTimeout = std::chrono::seconds(60);

struct ImportArguments {
  std::string file;
  std::string ingest_url;
  std::string token;
  std::string key_file;
  std::string host_name;
  std::string volume_name;
  bool send_names = false;
  double at_unix_seconds = 0;  // 0: now
  bool dry_run = false;
};

// "vm<worldGroupID>-<label>", e.g. vm2099979-scsi0:0 (the handle id without a label).
std::string default_volume_name(const vscsistats::Disk& disk) {
  return "vm" + disk.world_group_id + "-" + (disk.label.empty() ? disk.handle_id : disk.label);
}

int run(const ImportArguments& a) {
  std::ifstream in(a.file);
  if (!in) throw std::invalid_argument("cannot open " + a.file);
  std::vector<std::string> skipped;
  std::vector<vscsistats::Disk> disks;
  try {
    disks = vscsistats::parse(in, a.file, &skipped);
  } catch (const vscsistats::ParseError& e) {
    std::fprintf(stderr, "tierwise-agent: %s\n", e.what());
    return kExitUsage;
  }
  for (const std::string& s : skipped) std::fprintf(stderr, "tierwise-agent: skipped an unknown histogram: %s\n", s.c_str());
  if (!a.volume_name.empty() && disks.size() > 1) {
    throw std::invalid_argument("--volume-name names one volume, the file holds " + std::to_string(disks.size()) + " virtual disks");
  }
  if (!a.dry_run && a.ingest_url.empty()) throw std::invalid_argument("--ingest is required (or --dry-run)");

  const std::string key_path = a.key_file.empty() ? sampling::default_key_file_path() : a.key_file;
  bool created = false;
  const sampling::KeyedHasher hasher(sampling::load_or_create_key_file(key_path, &created));
  if (created) std::fprintf(stderr, "tierwise-agent: created a new tenant key in %s\n", key_path.c_str());
  const std::string host_name = a.host_name.empty() ? std::filesystem::path(a.file).stem().string() : a.host_name;

  const uint64_t end = a.at_unix_seconds > 0
                           ? static_cast<uint64_t>(a.at_unix_seconds * 1e9)
                           : static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                       std::chrono::system_clock::now().time_since_epoch())
                                                       .count());
  std::vector<exporter::VolumeResource> resources;
  std::vector<telemetry::IntervalMetrics> intervals;
  for (const vscsistats::Disk& disk : disks) {
    const std::string name = a.volume_name.empty() ? default_volume_name(disk) : a.volume_name;
    exporter::VolumeResource r{hasher.host_id(host_name), hasher.volume_id(name), "", "", "", "vscsistats"};
    if (a.send_names) r.host_name = host_name, r.volume_name = name;
    intervals.push_back(vscsistats::interval_of(disk));
    const auto& m = intervals.back();
    constexpr auto f = static_cast<size_t>(telemetry::Source::kFrontend);
    std::cout << "disk " << (disk.label.empty() ? disk.handle_id : disk.label) << " of VM " << disk.world_group_id << ": "
              << disk.histograms.size() << " histograms, " << m.operations[0][f] + m.operations[1][f]
              << " I/Os -> volume " << r.volume_id << " (" << name << ") of host " << r.host_id << " (" << host_name << ")\n";
    resources.push_back(std::move(r));
  }
  if (a.dry_run) {
    std::cout << "(not exported: --dry-run)\n";
    return kExitOk;
  }

  std::vector<exporter::VolumeInterval> volumes;
  for (size_t i = 0; i < disks.size(); ++i) volumes.push_back({&resources[i], &intervals[i]});
  exporter::SenderConfig config;
  config.ingest_url = a.ingest_url;
  config.token = a.token;
  config.user_agent = versioned_user_agent();
  exporter::HttpSender sender(config);
  exporter::ExportMetricsServiceRequest request;
  for (size_t at = 0; at < volumes.size(); at += exporter::kMaxVolumesPerRequest) {
    const size_t n = std::min(exporter::kMaxVolumesPerRequest, volumes.size() - at);
    exporter::encode_metrics({volumes.data() + at, n}, {end - kIntervalNanos, end}, agent_version(), &request);
    sender.enqueue(exporter::metrics_batch(request, 0));
  }
  sender.drain_for(kDrainTimeout);
  sender.stop();
  const exporter::DeliveryStats st = sender.stats(0);
  std::cout << "sent " << st.sent << " request(s)";
  if (st.rejected > 0) std::cout << ", rejected " << st.rejected << ": " << st.first_problem;
  if (st.failed > 0) std::cout << ", not delivered " << st.failed;
  std::cout << "\n";
  return st.rejected > 0 ? kExitRejected : st.failed > 0 ? kExitUndelivered : kExitOk;
}

}  // namespace

void register_import_vscsistats_command(CLI::App& app) {
  auto a = std::make_shared<ImportArguments>();
  CLI::App* cmd = app.add_subcommand(
      "import-vscsistats",
      "Send the histograms of VMware `vscsiStats -p all -c` output (for ESXi hosts, which cannot run the "
      "agent) to ingest: each virtual disk as one volume, marked imported, through the normal telemetry "
      "path (docs/workload.md)");
  cmd->add_option("file", a->file, "The CSV that `vscsiStats -p all -c` wrote")->required()->check(CLI::ExistingFile);
  add_ingest_options(*cmd, a->ingest_url, a->token, a->key_file);
  cmd->add_option("--host-name", a->host_name, "The ESXi host the output comes from (default: the file name without extension)");
  cmd->add_option("--volume-name", a->volume_name, "The volume's name when the file holds one virtual disk (default: vm<worldGroupID>-<disk>)");
  cmd->add_flag("--send-names", a->send_names, "Also send host.name and tierwise.volume.name");
  cmd->add_option("--at", a->at_unix_seconds,
                  "End of the interval the histograms count in, Unix seconds (default: now); the interval is 10 s")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--dry-run", a->dry_run, "Read the file and print what would be sent; send nothing");
  cmd->footer(
      "Malformed input is reported as file:line and nothing is sent.\n"
      "Exit codes: 0 ok; 2 bad command line or malformed file; 4 ingest rejected the request (e.g. HTTP 401); "
      "5 not delivered (ingest unreachable).");
  cmd->callback([a] { run_with_exit_code([&] { return run(*a); }); });
}

}  // namespace tierwise::cli
