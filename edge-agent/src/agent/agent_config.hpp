// /etc/tierwise/agent.yaml: what `tierwise-agent run` and `enroll` read
// (written by the installer, docs/install.md).
#pragma once

#include <string>

#include "serve/serve_config.hpp"

namespace tierwise::agent {

// Where the installer puts the file; `run --config` and `enroll --config` default to it.
inline constexpr const char* kDefaultConfigPath = "/etc/tierwise/agent.yaml";

struct AgentConfig {
  std::string api_url;                 // base URL of the api, e.g. https://api.example.com (no /v1)
  std::string ingest_url;              // base URL of ingest (no path)
  std::string credential_file;         // the agent credential (twa_...), written by `enroll`, mode 0600
  std::string anonymization_key_file;  // the tenant key (32 hex characters), mode 0600
  std::string spool_dir;               // batches ingest cannot take yet; empty: beside the key file
  double health_interval_seconds = 60;     // health report period, >= 1
  double telemetry_interval_seconds = 10;  // telemetry interval, >= 1
  bool send_names = false;             // host and volume names leave the host (per-host opt-in)
  bool lru_anchor = false;             // serve's --lru-anchor: the exact 4 MiB LRU count (docs/analytics.md)
  std::string cluster;                 // name of the cluster whose shared tier the host uses; empty: none
  serve::ServeConfig serve;              // "listen" and "volumes", as in serve's volumes file
};

// Parses the YAML text of agent.yaml:
//   api_url: http://127.0.0.1:8080
//   ingest_url: http://127.0.0.1:4318
//   credential_file: /etc/tierwise/agent.credential
//   anonymization_key_file: /etc/tierwise/anonymization.key
//   spool_dir: /var/lib/tierwise/spool            # optional
//   health_interval_seconds: 60                   # optional
//   telemetry_interval_seconds: 10                # optional
//   send_names: false                             # optional
//   lru_anchor: false                             # optional
//   cluster: prod-a                               # optional: its keyed hash is tierwise.cluster.id
//   listen: unix:/run/tierwise/nbd.sock
//   volumes: []                                   # or a list of serve's volume maps:
//     - {name: vm1, datastore: /var/lib/vm1.img, size: 10GiB, tier: {ram: 1GiB}}
// "listen" and "volumes" go through serve::parse_serve_config (the same checks
// and messages as a volumes file). `origin` names the file in messages.
// Throws std::invalid_argument naming the file and the key for bad YAML, an
// unknown key, a missing required key or a value of the wrong type.
AgentConfig parse_agent_config(const std::string& yaml_text, const std::string& origin);

// Reads and parses the file at `path`; std::invalid_argument when unreadable.
AgentConfig load_agent_config(const std::string& path);

// The first line of the credential file, trimmed. Throws std::runtime_error
// naming the file when it is missing or empty ("enroll first").
std::string read_credential(const std::string& path);

}  // namespace tierwise::agent
