#include "serve/serve_policy.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "policy/policy_apply.hpp"

namespace tierwise::serve {
namespace {

int64_t unix_now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

policy::VolumeShape shape_of(const ServedVolume& v) {
  policy::VolumeShape s;
  s.tier_device_bytes = v.tier_room_bytes;
  s.ram = v.config.tier_file.empty();
  s.journal = v.config.write_back;
  s.peers = static_cast<uint32_t>(v.config.peers.size());
  return s;
}

}  // namespace

ServePolicy::ServePolicy(policy::PolicyClientConfig client, const std::vector<std::unique_ptr<ServedVolume>>& volumes,
                         const sampling::KeyedHasher& hasher)
    : volumes_(volumes) {
  for (const auto& v : volumes) ids_.push_back(hasher.volume_id(v->config.name));
  client.volume_ids = ids_;
  client_ = std::make_unique<policy::PolicyClient>(std::move(client));
}

void ServePolicy::on_wake() {
  uint64_t count = 0;
  [[maybe_unused]] const ssize_t got = ::read(client_->wake_fd(), &count, sizeof count);
  std::vector<policy::AppliedReport> reports;
  for (const policy::VolumePolicy& p : client_->take()) {
    for (size_t i = 0; i < volumes_.size(); ++i) {
      if (ids_[i] != p.volume_id) continue;
      ServedVolume& v = *volumes_[i];
      const policy::ApplyOutcome outcome = policy::apply_policy(p, shape_of(v), *v.engine);
      if (!outcome.changes.empty()) {
        std::fprintf(stderr, "tierwise-agent: volume %s: changed live: %s\n", v.config.name.c_str(),
                     outcome.changes.c_str());
      }
      std::fprintf(stderr, "tierwise-agent: volume %s: policy %s applied%s%s\n", v.config.name.c_str(),
                   policy::describe(p).c_str(), outcome.problems.empty() ? "" : " with problems: ",
                   outcome.problems.c_str());
      reports.push_back({p.volume_id, p.version, unix_now_us(), outcome.problems});
    }
  }
  client_->report(std::move(reports));
}

}  // namespace tierwise::serve
