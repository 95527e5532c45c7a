// /etc/tierwise/agent.yaml: what `tierwise-agent run` and `enroll` read
// (written by the installer, docs/install.md).
#pragma once

#include <string>
#include <vector>

#include "serve/serve_config.hpp"

namespace tierwise::agent {

// Where the installer puts the file; `run --config` and `enroll --config` default to it.
inline constexpr const char* kDefaultConfigPath = "/etc/tierwise/agent.yaml";

// The message printed (once, on stderr) when agent.yaml still has "api_url".
inline constexpr const char* kApiUrlDeprecation =
    "api_url is deprecated and ignored: the agent calls every route at gateway_url (docs/agent-gateway.md)";

struct AgentConfig {
  // Base URL of the agent gateway (no path), e.g. https://ingest.example.com: every route the
  // agent calls (telemetry, policies, health, enrollment: docs/agent-gateway.md).
  std::string gateway_url;
  std::string credential_file;         // the agent credential (twa_...), written by `enroll`, mode 0600
  std::string anonymization_key_file;  // the tenant key (32 hex characters), mode 0600
  std::string spool_dir;               // batches ingest cannot take yet; empty: beside the key file
  double health_interval_seconds = 60;     // health report period, >= 1
  double telemetry_interval_seconds = 10;  // telemetry interval, >= 1
  bool send_names = false;             // host and volume names leave the host (per-host opt-in)
  bool lru_anchor = false;             // serve's --lru-anchor: the exact 4 MiB LRU count (docs/analytics.md)
  std::string cluster;                 // name of the cluster whose shared tier the host uses; empty: none
  serve::ServeConfig serve;              // "listen" and "volumes", as in serve's volumes file
  std::vector<std::string> warnings;   // deprecated keys found (kApiUrlDeprecation); load_agent_config prints them
};

// Parses the YAML text of agent.yaml:
//   gateway_url: http://127.0.0.1:4318
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
// Deprecated keys (one release, docs/agent-gateway.md): "ingest_url" is read as
// "gateway_url" (both given: they must be equal); "api_url" is accepted and
// ignored, with kApiUrlDeprecation in `warnings`.
// Throws std::invalid_argument naming the file and the key for bad YAML, an
// unknown key, a missing required key, a value of the wrong type, or
// "gateway_url" and "ingest_url" that differ.
AgentConfig parse_agent_config(const std::string& yaml_text, const std::string& origin);

// Reads and parses the file at `path`, printing each warning on stderr as
// "tierwise-agent: <path>: <warning>"; std::invalid_argument when unreadable.
AgentConfig load_agent_config(const std::string& path);

// The first line of the credential file, trimmed. Throws std::runtime_error
// naming the file when it is missing or empty ("enroll first").
std::string read_credential(const std::string& path);

}  // namespace tierwise::agent
