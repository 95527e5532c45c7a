#include "cache/eviction/eviction_policy.hpp"

#include "cache/eviction/arc_policy.hpp"
#include "cache/eviction/lru_policy.hpp"
#include "cache/eviction/s3fifo_policy.hpp"
#include "cache/eviction/sieve_policy.hpp"
#include "cache/eviction/two_q_policy.hpp"

namespace tierwise::cache::eviction {

const std::vector<PolicyKind>& all_policies() {
  static const std::vector<PolicyKind> kinds{PolicyKind::kLru, PolicyKind::kS3Fifo,
                                             PolicyKind::kArc, PolicyKind::kTwoQ,
                                             PolicyKind::kSieve};
  return kinds;
}

std::string_view policy_name(PolicyKind kind) {
  switch (kind) {
    case PolicyKind::kLru: return "lru";
    case PolicyKind::kS3Fifo: return "s3fifo";
    case PolicyKind::kArc: return "arc";
    case PolicyKind::kTwoQ: return "2q";
    case PolicyKind::kSieve: return "sieve";
  }
  return "?";
}

std::vector<std::string> policy_names() {
  std::vector<std::string> names;
  for (PolicyKind kind : all_policies()) names.emplace_back(policy_name(kind));
  return names;
}

std::optional<PolicyKind> parse_policy(std::string_view name) {
  for (PolicyKind kind : all_policies()) {
    if (policy_name(kind) == name) return kind;
  }
  return std::nullopt;
}

std::unique_ptr<EvictionPolicy> make_policy(PolicyKind kind, uint32_t capacity_slots) {
  switch (kind) {
    case PolicyKind::kLru: return std::make_unique<LruPolicy>();
    case PolicyKind::kS3Fifo: return std::make_unique<S3FifoPolicy>(capacity_slots);
    case PolicyKind::kArc: return std::make_unique<ArcPolicy>(capacity_slots);
    case PolicyKind::kTwoQ: return std::make_unique<TwoQPolicy>(capacity_slots);
    case PolicyKind::kSieve: return std::make_unique<SievePolicy>();
  }
  return nullptr;
}

}  // namespace tierwise::cache::eviction
