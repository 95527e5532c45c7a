// Policy pull of `tierwise-agent serve` (and of any daemon over the same
// served volumes): the PolicyClient bound to the volumes' cache engines.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "serve/serve_volumes.hpp"
#include "policy/policy_client.hpp"
#include "sampling/keyed_hash.hpp"

namespace tierwise::serve {

/*
 * Lifecycle of a ServePolicy
 *
 * 1. Construct with the client's URL and token (`client.volume_ids` is filled
 *    here: the keyed hashes of the volumes' names) and the served volumes
 *    (not owned; they outlive it). The client starts pulling at once.
 * 2. The owner's event loop watches wake_fd() and calls on_wake() on the
 *    thread that drives the engines: each new desired version is applied
 *    (policy/policy_apply.hpp: mode, tier size and eviction switched live,
 *    media reported), logged on stderr ("changed live: ..." when anything
 *    changed, then "policy ... applied" with its problems if any) and
 *    reported applied, with the problems as its error.
 * 3. stop() before the volumes close: posts the last reports, joins.
 */
class ServePolicy {
 public:
  ServePolicy(policy::PolicyClientConfig client, const std::vector<std::unique_ptr<ServedVolume>>& volumes,
              const sampling::KeyedHasher& hasher);

  int wake_fd() const { return client_->wake_fd(); }
  void on_wake();
  void stop() { client_->stop(); }

 private:
  const std::vector<std::unique_ptr<ServedVolume>>& volumes_;
  std::vector<std::string> ids_;  // volume id of volumes_[i]
  std::unique_ptr<policy::PolicyClient> client_;
};

}  // namespace tierwise::serve
