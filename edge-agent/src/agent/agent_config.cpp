#include "agent/agent_config.hpp"

#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

namespace tierwise::agent {
namespace {

using nlohmann::json;

const std::set<std::string> kKeys = {"gateway_url", "ingest_url", "api_url", "credential_file", "anonymization_key_file",
                                     "spool_dir", "health_interval_seconds", "telemetry_interval_seconds",
                                     "send_names", "lru_anchor", "cluster", "listen", "volumes"};

// YAML scalars are untyped: a scalar that reads fully as an integer becomes a
// JSON number, true/false a boolean (not YAML 1.1's yes/no/on/off), anything else a string (byte sizes such
// as "1GiB" stay strings, as serve's volumes file wants them).
json to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Sequence: {
      json out = json::array();
      for (const YAML::Node& item : node) out.push_back(to_json(item));
      return out;
    }
    case YAML::NodeType::Map: {
      json out = json::object();
      for (const auto& item : node) out[item.first.as<std::string>()] = to_json(item.second);
      return out;
    }
    case YAML::NodeType::Scalar: {
      const std::string text = node.Scalar();
      if (node.Tag() != "!") {  // not a quoted string
        long long integer = 0;
        if (YAML::convert<long long>::decode(node, integer)) return integer;
        if (text == "true" || text == "false") return text == "true";
      }
      return text;
    }
    default:
      return nullptr;
  }
}

std::string required_string(const YAML::Node& root, const char* key, const std::string& origin) {
  const YAML::Node node = root[key];
  if (!node || !node.IsScalar() || node.Scalar().empty()) {
    throw std::invalid_argument(origin + ": \"" + key + "\" is required (a non-empty string)");
  }
  return node.Scalar();
}

// A base URL without its trailing slashes (routes are appended: "/v1/...").
std::string base_url(std::string url) {
  while (url.size() > 1 && url.back() == '/') url.pop_back();
  return url;
}

double seconds(const YAML::Node& root, const char* key, double fallback, const std::string& origin) {
  const YAML::Node node = root[key];
  if (!node) return fallback;
  double value = 0;
  if (!node.IsScalar() || !YAML::convert<double>::decode(node, value) || value < 1) {
    throw std::invalid_argument(origin + ": \"" + key + "\" must be a number of seconds, at least 1");
  }
  return value;
}

}  // namespace

AgentConfig parse_agent_config(const std::string& yaml_text, const std::string& origin) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw std::invalid_argument(origin + ": not valid YAML: " + e.what());
  }
  if (!root.IsMap()) throw std::invalid_argument(origin + ": must be a YAML map of settings");
  for (const auto& item : root) {
    const std::string key = item.first.as<std::string>();
    if (kKeys.count(key) == 0) throw std::invalid_argument(origin + ": unknown key \"" + key + "\"");
  }
  AgentConfig c;
  // "ingest_url": the gateway's former name (one release).
  if (root["gateway_url"] && root["ingest_url"]) {
    const std::string gateway = base_url(required_string(root, "gateway_url", origin));
    const std::string ingest = base_url(required_string(root, "ingest_url", origin));
    if (gateway != ingest) {
      throw std::invalid_argument(origin + ": \"gateway_url\" (" + gateway + ") and \"ingest_url\" (" + ingest +
                                  ") differ: \"ingest_url\" is the former name of \"gateway_url\", keep only \"gateway_url\"");
    }
  }
  c.gateway_url =
      base_url(required_string(root, root["gateway_url"] || !root["ingest_url"] ? "gateway_url" : "ingest_url", origin));
  if (root["api_url"]) c.warnings.emplace_back(kApiUrlDeprecation);
  c.credential_file = required_string(root, "credential_file", origin);
  c.anonymization_key_file = required_string(root, "anonymization_key_file", origin);
  if (root["spool_dir"]) c.spool_dir = required_string(root, "spool_dir", origin);
  c.health_interval_seconds = seconds(root, "health_interval_seconds", c.health_interval_seconds, origin);
  c.telemetry_interval_seconds = seconds(root, "telemetry_interval_seconds", c.telemetry_interval_seconds, origin);
  for (auto [key, flag] : {std::pair{"send_names", &c.send_names}, std::pair{"lru_anchor", &c.lru_anchor}}) {
    if (const YAML::Node node = root[key]; node && (!node.IsScalar() || !YAML::convert<bool>::decode(node, *flag))) {
      throw std::invalid_argument(origin + ": \"" + key + "\" must be true or false");
    }
  }
  if (root["cluster"]) c.cluster = required_string(root, "cluster", origin);
  const YAML::Node volumes = root["volumes"];
  if (volumes && !volumes.IsNull() && !volumes.IsSequence()) {
    throw std::invalid_argument(origin + ": \"volumes\" must be a list");
  }
  const std::string listen = root["listen"] ? required_string(root, "listen", origin) : "";
  if (volumes && volumes.IsSequence() && volumes.size() > 0) {
    json serve = {{"volumes", to_json(volumes)}};
    if (!listen.empty()) serve["listen"] = listen;
    c.serve = serve::parse_serve_config(serve.dump(), origin);
  }
  c.serve.listen = listen;  // no volumes (the installer's default): the agent only reports health
  return c;
}

AgentConfig load_agent_config(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot read agent configuration " + path);
  std::ostringstream text;
  text << in.rdbuf();
  AgentConfig config = parse_agent_config(text.str(), path);
  for (const std::string& warning : config.warnings) {
    std::fprintf(stderr, "tierwise-agent: %s: %s\n", path.c_str(), warning.c_str());
  }
  return config;
}

std::string read_credential(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) {
    throw std::runtime_error("no agent credential in " + path + " (enroll first: tierwise-agent enroll --token <enrollment token>)");
  }
  const auto first = line.find_first_not_of(" \t\r");
  const auto last = line.find_last_not_of(" \t\r");
  if (first == std::string::npos) throw std::runtime_error("agent credential file " + path + " is empty");
  return line.substr(first, last - first + 1);
}

}  // namespace tierwise::agent
