#include "serve/serve_config.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "cache/eviction/eviction_policy.hpp"
#include "serve/byte_size.hpp"
#include "telemetry/cpu_usage.hpp"

namespace tierwise::serve {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw std::invalid_argument(where + ": " + what);
}

void only_keys(const json& j, std::initializer_list<const char*> keys, const std::string& where) {
  for (const auto& [key, value] : j.items()) {
    if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return key == k; })) {
      fail(where, "unknown key \"" + key + "\"");
    }
  }
}

std::string string_field(const json& j, const char* key, const std::string& where, bool required) {
  if (!j.contains(key)) {
    if (required) fail(where, std::string("\"") + key + "\" is missing");
    return "";
  }
  if (!j[key].is_string() || j[key].get<std::string>().empty()) {
    fail(where, std::string("\"") + key + "\" must be a non-empty string");
  }
  return j[key].get<std::string>();
}

uint64_t size_field(const json& j, const char* key, const std::string& where, uint64_t multiple) {
  const std::string text = string_field(j, key, where, true);
  const std::optional<uint64_t> v = parse_byte_size(text);
  if (!v) fail(where, std::string("\"") + key + "\" is not a byte size such as \"1GiB\": " + text);
  if (*v % multiple != 0) {
    fail(where, std::string("\"") + key + "\" must be a multiple of " + std::to_string(multiple) +
                    " bytes: " + text);
  }
  return *v;
}

bool valid_name(const std::string& name) {
  return !name.empty() && name.size() <= 64 &&
         std::all_of(name.begin(), name.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
         });
}

// "mode", "peers", "journal_entries", "destage_rate", "lease" and "lease_ms"
// of the volume at `at` ("datastore" is parsed already).
void parse_write_back(const json& j, const std::string& at, VolumeConfig* v) {
  if (j.contains("mode")) {
    const std::string mode = string_field(j, "mode", at, true);
    if (mode != "write-through" && mode != "write-back") {
      fail(at, "\"mode\" must be \"write-through\" or \"write-back\": " + mode);
    }
    v->write_back = mode == "write-back";
  }
  if (v->write_back && v->tier_file.empty()) {
    fail(at, "write-back needs a persistent tier ({\"file\": ..., \"size\": ...}): a RAM tier "
             "cannot hold the journal across a crash");
  }
  if (j.contains("peers")) {
    if (!v->write_back) fail(at, "\"peers\" needs \"mode\": \"write-back\"");
    if (!j["peers"].is_array()) fail(at, "\"peers\" must be an array of \"host:port\" strings");
    for (const json& p : j["peers"]) {
      if (!p.is_string() || p.get<std::string>().find(':') == std::string::npos) {
        fail(at, "\"peers\" must be an array of \"host:port\" strings");
      }
      v->peers.push_back(p.get<std::string>());
    }
  }
  if (j.contains("journal_entries")) {
    if (!v->write_back) fail(at, "\"journal_entries\" needs \"mode\": \"write-back\"");
    const json& e = j["journal_entries"];
    if (!e.is_number_unsigned() || e.get<uint64_t>() < 64 || e.get<uint64_t>() > (1u << 20)) {
      fail(at, "\"journal_entries\" must be an integer from 64 to 1048576");
    }
    v->journal_entries = static_cast<uint32_t>(e.get<uint64_t>());
  }
  if (j.contains("destage_rate")) {
    if (!v->write_back) fail(at, "\"destage_rate\" needs \"mode\": \"write-back\"");
    v->destage_rate_bytes_per_s = size_field(j, "destage_rate", at, 1);
  }
  if (j.contains("lease")) {
    if (v->peers.empty()) fail(at, "\"lease\" needs \"peers\"");
    v->lease_file = string_field(j, "lease", at, true);
  }
  if (j.contains("lease_ms")) {
    if (v->peers.empty()) fail(at, "\"lease_ms\" needs \"peers\"");
    const json& e = j["lease_ms"];
    if (!e.is_number_unsigned() || e.get<uint64_t>() < 200 || e.get<uint64_t>() > 600000) {
      fail(at, "\"lease_ms\" must be an integer from 200 to 600000");
    }
    v->lease_ms = static_cast<uint32_t>(e.get<uint64_t>());
  }
  if (!v->peers.empty() && v->lease_file.empty()) v->lease_file = v->datastore + ".lease";
}

// "consumer_cgroup" of the volume at `at`: a cgroup v2 directory whose
// cpu.stat can be read now (telemetry::read_cgroup_cpu).
void parse_consumer_cgroup(const json& j, const std::string& at, VolumeConfig* v) {
  if (!j.contains("consumer_cgroup")) return;
  v->consumer_cgroup = string_field(j, "consumer_cgroup", at, true);
  const telemetry::CpuReading<telemetry::ConsumerCpuTimes> r = telemetry::read_cgroup_cpu(v->consumer_cgroup);
  if (!r.times) fail(at, "\"consumer_cgroup\" must be a cgroup v2 directory with a cpu.stat: " + r.message);
}

VolumeConfig parse_volume(const json& j, const std::string& where) {
  if (!j.is_object()) fail(where, "must be an object");
  VolumeConfig v;
  v.name = string_field(j, "name", where, true);
  const std::string at = where + " (" + v.name + ")";
  only_keys(j, {"name", "datastore", "size", "tier", "policy", "sequential_cutoff", "mode", "peers",
                 "journal_entries", "destage_rate", "lease", "lease_ms", "consumer_cgroup"}, at);
  if (!valid_name(v.name)) fail(at, "\"name\" may only hold letters, digits, '.', '_' and '-' (1-64)");
  v.datastore = string_field(j, "datastore", at, true);
  if (j.contains("size")) v.size_bytes = size_field(j, "size", at, 512);
  if (!j.contains("tier") || !j["tier"].is_object()) {
    fail(at, "\"tier\" must be an object: {\"ram\": \"1GiB\"} or {\"file\": \"/nvme/t\", \"size\": \"8GiB\"}");
  }
  const json& tier = j["tier"];
  if (tier.contains("ram") == tier.contains("file")) fail(at + " tier", "give either \"ram\" or \"file\"");
  if (tier.contains("ram")) {
    only_keys(tier, {"ram"}, at + " tier");
    v.tier_bytes = size_field(tier, "ram", at + " tier", 4096);
  } else {
    only_keys(tier, {"file", "size"}, at + " tier");
    v.tier_file = string_field(tier, "file", at + " tier", true);
    v.tier_bytes = size_field(tier, "size", at + " tier", 4096);
  }
  if (j.contains("policy")) {
    v.policy = string_field(j, "policy", at, true);
    if (!cache::eviction::parse_policy(v.policy)) {
      std::string names;
      for (cache::eviction::PolicyKind k : cache::eviction::all_policies()) {
        names += (names.empty() ? "" : ", ") + std::string(cache::eviction::policy_name(k));
      }
      fail(at, "\"policy\" must be one of " + names + ": " + v.policy);
    }
  }
  if (j.contains("sequential_cutoff")) {
    const std::string text = string_field(j, "sequential_cutoff", at, true);
    const std::optional<uint64_t> bytes = text == "off" ? std::optional<uint64_t>(0) : parse_byte_size(text);
    if (!bytes) fail(at, "\"sequential_cutoff\" must be \"off\" or a byte size such as \"4MiB\": " + text);
    v.sequential_cutoff_bytes = *bytes;
  }
  parse_write_back(j, at, &v);
  parse_consumer_cgroup(j, at, &v);
  return v;
}

}  // namespace

ServeConfig parse_serve_config(const std::string& json_text, const std::string& origin) {
  const json j = json::parse(json_text, nullptr, false);
  if (j.is_discarded()) fail(origin, "not valid JSON");
  if (!j.is_object()) fail(origin, "must be a JSON object with \"volumes\"");
  only_keys(j, {"listen", "volumes"}, origin);
  ServeConfig c;
  c.listen = string_field(j, "listen", origin, false);
  if (!j.contains("volumes") || !j["volumes"].is_array() || j["volumes"].empty()) {
    fail(origin, "\"volumes\" must be a non-empty array");
  }
  std::set<std::string> names;
  for (size_t i = 0; i < j["volumes"].size(); ++i) {
    VolumeConfig v = parse_volume(j["volumes"][i], origin + ": volumes[" + std::to_string(i) + "]");
    if (!names.insert(v.name).second) fail(origin, "two volumes are named \"" + v.name + "\"");
    c.volumes.push_back(std::move(v));
  }
  return c;
}

ServeConfig load_serve_config(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot read volumes file " + path + ": " + std::strerror(errno));
  std::stringstream text;
  text << in.rdbuf();
  return parse_serve_config(text.str(), path);
}

}  // namespace tierwise::serve
