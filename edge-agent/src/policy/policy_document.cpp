#include "policy/policy_document.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <ctime>
#include <stdexcept>

namespace tierwise::policy {
namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string& what) {
  throw std::invalid_argument("policy document: " + what);
}

// The API spells S3-FIFO "s3-fifo"; the agent's volumes file "s3fifo".
cache::eviction::PolicyKind parse_eviction(const std::string& name) {
  const std::string agent_name = name == "s3-fifo" ? "s3fifo" : name;
  const auto kind = cache::eviction::parse_policy(agent_name);
  if (!kind) bad("unknown eviction policy \"" + name + "\"");
  return *kind;
}

VolumePolicy parse_one(const json& p) {
  VolumePolicy v;
  v.volume_id = p.at("volume_id").get<std::string>();
  v.version = p.at("version").get<int64_t>();
  if (v.version < 1) bad("volume " + v.volume_id + ": version must be >= 1");
  const std::string mode = p.at("mode").get<std::string>();
  if (mode != "write-through" && mode != "write-back") bad("volume " + v.volume_id + ": unknown mode \"" + mode + "\"");
  v.write_back = mode == "write-back";
  if (v.write_back) v.write_back_copies = p.at("write_back_copies").get<uint32_t>();
  const double tier = p.at("tier_bytes").get<double>();
  if (!(tier >= 4096) || tier > 9.0e15) bad("volume " + v.volume_id + ": tier_bytes out of range");
  v.tier_bytes = static_cast<uint64_t>(tier);
  if (v.tier_bytes % 4096 != 0) bad("volume " + v.volume_id + ": tier_bytes is not a multiple of 4096");
  const std::string media = p.at("media").get<std::string>();
  if (media != "ram" && media != "nvme") bad("volume " + v.volume_id + ": unknown media \"" + media + "\"");
  v.ram = media == "ram";
  v.eviction = parse_eviction(p.at("eviction").get<std::string>());
  return v;
}

std::string rfc3339(int64_t unix_us) {
  const time_t seconds = static_cast<time_t>(unix_us / 1'000'000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(unix_us % 1'000'000 / 1000));
  return buf;
}

}  // namespace

PolicyDocument parse_policy_document(const std::string& json_text) {
  PolicyDocument doc;
  try {
    const json body = json::parse(json_text);
    doc.etag = body.at("etag").get<std::string>();
    for (const json& p : body.at("policies")) doc.policies.push_back(parse_one(p));
  } catch (const json::exception& e) {
    bad(e.what());
  }
  return doc;
}

std::string encode_applied_reports(const std::vector<AppliedReport>& reports) {
  json list = json::array();
  for (const AppliedReport& r : reports) {
    list.push_back({{"volume_id", r.volume_id},
                    {"version", r.version},
                    {"applied_at", rfc3339(r.applied_unix_us)},
                    {"error", r.error.empty() ? json(nullptr) : json(r.error)}});
  }
  return json{{"reports", list}}.dump();
}

std::string describe(const VolumePolicy& p) {
  std::string text = p.write_back ? "WB+" + std::to_string(p.write_back_copies) : "WT";
  char size[48];
  std::snprintf(size, sizeof size, ", %s tier %.0f MiB, ", p.ram ? "RAM" : "NVMe",
                static_cast<double>(p.tier_bytes) / (1 << 20));
  return text + size + std::string(cache::eviction::policy_name(p.eviction)) + " (version " +
         std::to_string(p.version) + ")";
}

}  // namespace tierwise::policy
