// The eviction-policy interface of the cache engine's tier index, and the
// policies it offers: LRU, S3-FIFO, ARC and 2Q, all over 4 KiB block slots.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace tierwise::cache::eviction {

enum class PolicyKind { kLru, kS3Fifo, kArc, kTwoQ };

// Every policy, in the order shown to users.
const std::vector<PolicyKind>& all_policies();
// "lru", "s3fifo", "arc", "2q".
std::string_view policy_name(PolicyKind kind);
// The policy named `name` (as above), or nullopt.
std::optional<PolicyKind> parse_policy(std::string_view name);

// The engine's default policy, chosen by the measurements in docs/eviction.md.
inline constexpr PolicyKind kDefaultPolicy = PolicyKind::kS3Fifo;

// Block numbers of resident slots, as the tier index holds them (policies that
// keep ghost entries read the victim's block here).
class ResidentBlocks {
 public:
  virtual uint64_t block_in(uint32_t slot) const = 0;

 protected:
  ~ResidentBlocks() = default;
};

/*
 * How the tier index (TierIndex) drives a policy. Slots are tier positions of
 * 4 KiB blocks; the policy only orders them and never sees data or pins.
 *
 *   hit:   on_hit(slot)
 *   miss:  on_miss(block); then, only when the tier holds `capacity` blocks,
 *          evict() names the victim; then on_insert(slot, block) unless the
 *          index found no slot for it (see TierIndex: deferred eviction).
 *   undo:  on_erase(slot) when a block leaves without an eviction (an I/O
 *          failed); no ghost entry is kept for it.
 *
 * Every call is O(1) (amortised over the policy's own queue passes: S3-FIFO's
 * and 2Q's reinsertion loops move each block a bounded number of times) and
 * allocates nothing once the structures have grown to the tier's size.
 */
class EvictionPolicy {
 public:
  static constexpr uint32_t kNoSlot = 0xffffffffu;

  virtual ~EvictionPolicy() = default;
  virtual PolicyKind kind() const = 0;
  // The resident block in `slot` was accessed.
  virtual void on_hit(uint32_t slot) = 0;
  // `block`, not resident, was accessed and will be admitted: policies with
  // ghost entries look it up here (and forget it there).
  virtual void on_miss(uint64_t block) = 0;
  // The tier is full: removes the victim for the block of the last on_miss from
  // the policy's queues (keeping a ghost entry where the policy does) and
  // returns its slot; kNoSlot only when nothing is resident.
  virtual uint32_t evict(const ResidentBlocks& blocks) = 0;
  // The block of the last on_miss now occupies `slot`.
  virtual void on_insert(uint32_t slot, uint64_t block) = 0;
  // `slot` leaves the tier without an eviction.
  virtual void on_erase(uint32_t slot) = 0;
};

// A policy of `kind` for a tier of `capacity_slots` (>= 1) blocks.
std::unique_ptr<EvictionPolicy> make_policy(PolicyKind kind, uint32_t capacity_slots);

}  // namespace tierwise::cache::eviction
