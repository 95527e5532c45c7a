#include "cli/sample_refs_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <google/protobuf/util/delimited_message_util.h>

#include "serve/host_name.hpp"
#include "common/exit_code.hpp"
#include "cli/trace_input.hpp"
#include "cache/miniature_simulations.hpp"
#include "sampling/keyed_hash.hpp"
#include "sampling/reference_batcher.hpp"
#include "sampling/shards_sampler.hpp"
#include "sampling/tenant_key.hpp"

namespace tierwise::cli {
namespace {

struct SampleRefsOptions {
  TraceArgument trace;
  std::string key_hex;
  std::string key_file;
  double rate = sampling::kDefaultSamplingRate;
  size_t max_sampled_blocks = sampling::ReferenceBatcher::kDefaultMaxSampledBlocks;
  std::string out;
  std::string host;
  std::string cluster;
  std::string volume_name;
  std::string volume;  // --volume: only this volume of the trace; "" = every volume
};

struct VolumeIos {
  std::string name;
  std::vector<trace::IoRecord> ios;  // volume name cleared (it is `name`)
};

sampling::TenantKey tenant_key(const SampleRefsOptions& options) {
  if (!options.key_hex.empty()) {
    try {
      return sampling::parse_tenant_key(options.key_hex);
    } catch (const std::invalid_argument& e) {
      throw CLI::ValidationError("--key", e.what());
    }
  }
  std::string path = options.key_file.empty() ? sampling::default_key_file_path() : options.key_file;
  bool created = false;
  try {
    sampling::TenantKey key = sampling::load_or_create_key_file(path, &created);
    if (created) std::cerr << "created a new tenant key in " << path << '\n';
    return key;
  } catch (const std::runtime_error& e) {
    throw CLI::ValidationError("--key-file", e.what());
  }
}

// The I/Os of every volume (or of `only`, when not empty), each volume's in time
// order (stable: trace order on ties).
std::vector<VolumeIos> read_volumes(TraceInput& input, const std::string& only) {
  std::vector<VolumeIos> volumes;
  std::unordered_map<std::string, size_t> index;
  trace::IoRecord record;
  while (input.reader().next(record)) {
    if (!only.empty() && record.volume != only) continue;
    auto [it, inserted] = index.try_emplace(record.volume, volumes.size());
    if (inserted) volumes.push_back({record.volume, {}});
    record.volume.clear();
    volumes[it->second].ios.push_back(record);
  }
  for (VolumeIos& volume : volumes) {
    std::stable_sort(volume.ios.begin(), volume.ios.end(),
                     [](const auto& a, const auto& b) { return a.time_us < b.time_us; });
  }
  return volumes;
}

// Every I/O of every volume as (volume index, I/O), in time order (stable: by volume, then trace
// order, on ties).
std::vector<std::pair<size_t, const trace::IoRecord*>> time_order(const std::vector<VolumeIos>& volumes) {
  std::vector<std::pair<size_t, const trace::IoRecord*>> order;
  for (size_t v = 0; v < volumes.size(); ++v) {
    for (const trace::IoRecord& io : volumes[v].ios) order.emplace_back(v, &io);
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.second->time_us < b.second->time_us; });
  return order;
}

void run_sample_refs(const SampleRefsOptions& options) {
  sampling::KeyedHasher hasher(tenant_key(options));
  sampling::ShardsSampler sampler(hasher, options.rate);
  TraceInput input(options.trace);
  std::vector<VolumeIos> volumes = read_volumes(input, options.volume);
  if (!options.volume.empty() && volumes.empty()) {
    VolumeChoice("sample-refs", options.volume).usage_error("the trace holds no record of volume " +
                                                            options.volume);
  }

  std::ofstream out(options.out, std::ios::binary | std::ios::trunc);
  if (!out) {
    std::cerr << "tierwise-agent sample-refs: cannot create " << options.out << '\n';
    throw CLI::RuntimeError(kExitFailure);
  }
  uint64_t batches = 0;
  uint64_t references = 0;
  auto write = [&](const tierwise::v1::ReferenceBatch& batch) {
    google::protobuf::util::SerializeDelimitedToOstream(batch, &out);
    ++batches;
    references += static_cast<uint64_t>(batch.references_size());
  };
  std::string host_id = hasher.host_id(options.host.empty() ? serve::local_host_name() : options.host);
  if (!options.volume_name.empty() && volumes.size() != 1) {
    throw CLI::ValidationError("--volume-name", "needs a trace of one volume; this one holds " +
                                                    std::to_string(volumes.size()));
  }
  // The host's shared tier is every volume's I/Os in time order, so the volumes go through their
  // batchers interleaved, as a host's agent sees them; each volume's batches stay in its order.
  cache::MiniatureSimulations host_tier(sampler.modulus(), sampler.threshold(),
                                        cache::MiniatureSimulations::default_cache_bytes(),
                                        cache::MiniatureSimulations::kDefaultMaxBlocks, /*parts=*/0);
  sampling::WorkingSetWindows host_windows(sampler.modulus(), sampler.threshold(),
                                           sampling::ReferenceBatcher::kServiceMaxSamples, /*parts=*/0);
  std::vector<std::unique_ptr<sampling::ReferenceBatcher>> batchers;
  for (const VolumeIos& volume : volumes) {
    const std::string volume_id =
        hasher.volume_id(options.volume_name.empty() ? volume.name : options.volume_name);
    auto& batcher = batchers.emplace_back(std::make_unique<sampling::ReferenceBatcher>(
        host_id, volume_id, sampler, write, sampling::DistinctBlockSketch::kDefaultPrecision,
        options.max_sampled_blocks));
    if (!options.cluster.empty()) batcher->set_cluster_id(hasher.cluster_id(options.cluster));
    batcher->set_host_tier(&host_tier, &host_windows, std::hash<std::string>{}(volume_id));
  }
  for (const auto& [volume, io] : time_order(volumes)) batchers[volume]->add(*io, io->time_us);
  for (auto& batcher : batchers) batcher->flush();
  out.close();
  if (!out) {
    std::cerr << "tierwise-agent sample-refs: cannot write " << options.out << '\n';
    throw CLI::RuntimeError(kExitFailure);
  }
  std::cout << "wrote " << batches << " batches, " << references << " references of "
            << volumes.size() << " volume(s) to " << options.out << " (rate "
            << sampler.threshold() << "/" << sampler.modulus() << " = " << sampler.rate()
            << ")\n";
  input.finish();
}

}  // namespace

void register_sample_refs_command(CLI::App& app) {
  auto options = std::make_shared<SampleRefsOptions>();
  CLI::App* command = app.add_subcommand(
      "sample-refs",
      "Write the SHARDS-sampled block references the agent would ship for a trace: "
      "tierwise.v1.ReferenceBatch messages (at most 10000 references, one volume each, with "
      "the count of all block references and the distinct-block sketch of their span, and the "
      "miniature simulations and working-set windows' shares of the volume and of the trace's volumes as one host's shared "
      "tier), each preceded by its varint length (protobuf writeDelimitedTo); the volumes' "
      "batches interleaved in time order.");
  add_trace_argument(*command, options->trace);
  CLI::Option* key = command->add_option(
      "--key", options->key_hex,
      "Tenant secret, 32 hex characters (visible to other local users; prefer --key-file)");
  command
      ->add_option("--key-file", options->key_file,
                   "File holding the tenant secret; created with a random key when missing "
                   "(default: $TIERWISE_AGENT_KEY_FILE, else /etc/tierwise/anonymization.key)")
      ->excludes(key);
  command->add_option("--rate", options->rate, "SHARDS sampling rate R = T / 2^24 (initial rate)")
      ->check(CLI::Range(1.0 / (1 << 24), 1.0))
      ->capture_default_str();
  command
      ->add_option("--max-sampled-blocks", options->max_sampled_blocks,
                   "Bound of each volume's sample: T falls as the footprint grows (0: fixed rate)")
      ->capture_default_str();
  command->add_option("--out", options->out, "Output file")->required();
  command->add_option("--host", options->host,
                      "Host name whose keyed hash becomes host_id (default: this host's name)");
  command->add_option("--cluster", options->cluster,
                      "Cluster name whose keyed hash becomes cluster_id (default: none)");
  command->add_option("--volume-name", options->volume_name,
                      "Volume name whose keyed hash becomes volume_id, for a trace of one volume "
                      "(default: the trace's)");
  command->add_option("--volume", options->volume,
                      "Sample only this volume of the trace (default: every volume)");
  command->callback([options] { run_sample_refs(*options); });
}

}  // namespace tierwise::cli
