// The policy document an agent pulls from GET <ingest>/v1/agent/policies and
// the applied report it posts back (docs/policies.md), as JSON.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cache/eviction/eviction_policy.hpp"

namespace tierwise::policy {

// One volume's desired cache policy (services/api policy.dto.ts).
struct VolumePolicy {
  std::string volume_id;        // keyed hash of the volume name (tierwise.volume.id)
  int64_t version = 0;          // desired version, >= 1
  bool write_back = false;      // "mode": "write-back"; false: "write-through"
  uint32_t write_back_copies = 0;  // n of WB+n (write-back only)
  uint64_t tier_bytes = 0;      // tier capacity, bytes (a multiple of 4096)
  bool ram = true;              // "media": "ram"; false: "nvme"
  cache::eviction::PolicyKind eviction = cache::eviction::PolicyKind::kLru;
};

struct PolicyDocument {
  std::string etag;  // the ETag the service sent (quoted), for If-None-Match
  std::vector<VolumePolicy> policies;
};

// What the agent made of one version (POST <ingest>/v1/agent/policies/applied).
struct AppliedReport {
  std::string volume_id;
  int64_t version = 0;
  int64_t applied_unix_us = 0;  // when it was applied, Unix epoch microseconds
  std::string error;            // what could not be applied; empty: all of it
};

// Parses the body of a 200 answer ({"etag": "...", "policies": [...]}).
// Throws std::invalid_argument naming the field for malformed JSON, unknown
// modes, media or eviction policies, or sizes that are not whole 4 KiB blocks.
PolicyDocument parse_policy_document(const std::string& json_text);

// The JSON body of the applied report: {"reports": [{"volume_id", "version",
// "applied_at" (RFC 3339, UTC, milliseconds), "error" (null when empty)}]}.
std::string encode_applied_reports(const std::vector<AppliedReport>& reports);

// "WT" or "WB+n", with the tier size and eviction, for log lines.
std::string describe(const VolumePolicy& policy);

}  // namespace tierwise::policy
