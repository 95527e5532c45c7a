// The power-loss harness's cases and profiles as text (power_loss_harness.hpp):
// the line a failure prints and its replay, the named profiles, the cut points
// of a recorded run.
#include <algorithm>
#include <exception>
#include <map>
#include <string>

#include "power_loss_harness.hpp"

namespace tierwise::test::plsim {

std::string Case::describe(const Profile& p) const {
  std::string s = "seed=" + std::to_string(seed) + " cut_after_op=";
  for (size_t i = 0; i < cuts.size(); ++i) {
    if (i != 0) s += ',';
    s += std::to_string(cuts[i]);
  }
  if (cuts.empty()) s += "none";
  s += " profile=" + p.name + " ops=" + std::to_string(p.ops) + " qd=" +
       std::to_string(p.queue_depth) + " hot=" + std::to_string(p.hot_blocks);
  if (recovery_cut != 0) s += " recovery_cut=" + std::to_string(recovery_cut);
  return s;
}

Profile profile_named(const std::string& name) {
  Profile p;
  p.lying_tier_flush = name.ends_with("-lying-tier");
  p.lying_datastore_flush = name.ends_with("-lying-datastore");
  if (name.starts_with("write-back-switching")) {
    p.percent_switches = 4;
  } else if (name.starts_with("write-through")) {
    p.write_back = false;
  }
  p.name = name;
  return p;
}

bool parse_case(const std::string& line, Profile* profile, Case* c) {
  std::map<std::string, std::string> fields;
  size_t at = 0;
  while (at < line.size()) {
    const size_t end = std::min(line.find(' ', at), line.size());
    const std::string item = line.substr(at, end - at);
    if (const size_t eq = item.find('='); eq != std::string::npos) {
      fields[item.substr(0, eq)] = item.substr(eq + 1);
    }
    at = end + 1;
  }
  try {
    *profile = profile_named(fields.contains("profile") ? fields["profile"] : "write-back");
    if (fields.contains("ops")) profile->ops = static_cast<uint32_t>(std::stoul(fields["ops"]));
    if (fields.contains("qd")) {
      profile->queue_depth = static_cast<uint32_t>(std::stoul(fields["qd"]));
    }
    if (fields.contains("hot")) {
      profile->hot_blocks = static_cast<uint32_t>(std::stoul(fields["hot"]));
    }
    *c = Case{};
    c->seed = std::stoull(fields.at("seed"));
    if (fields.contains("recovery_cut")) c->recovery_cut = std::stoull(fields["recovery_cut"]);
    const std::string& cuts = fields.at("cut_after_op");
    for (size_t from = 0; from < cuts.size() && cuts != "none";) {
      const size_t comma = std::min(cuts.find(',', from), cuts.size());
      c->cuts.push_back(std::stoull(cuts.substr(from, comma - from)));
      from = comma + 1;
    }
  } catch (const std::exception&) {
    return false;
  }
  return profile->queue_depth > 0 && profile->hot_blocks > 0 &&
         profile->hot_blocks <= profile->volume_blocks;
}

std::vector<uint64_t> flush_boundaries(const Result& recorded) {
  std::vector<uint64_t> cuts;
  for (const uint64_t s : recorded.flush_steps) {
    if (s > 1) cuts.push_back(s - 1);
    cuts.push_back(s);
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  return cuts;
}

}  // namespace tierwise::test::plsim
