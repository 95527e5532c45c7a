// The eviction-policy interface of the cache engine's tier index, and the
// policies it offers: LRU, S3-FIFO, ARC, 2Q and SIEVE, all over 4 KiB block slots.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tierwise::cache::eviction {

enum class PolicyKind { kLru, kS3Fifo, kArc, kTwoQ, kSieve };

// Every policy, in the order shown to users.
const std::vector<PolicyKind>& all_policies();
// "lru", "s3fifo", "arc", "2q", "sieve".
std::string_view policy_name(PolicyKind kind);
// Every policy's name, in all_policies() order (a command line's choices).
std::vector<std::string> policy_names();
// The policy named `name` (as above), or nullopt.
std::optional<PolicyKind> parse_policy(std::string_view name);

// The engine's default policy, chosen by the measurements in docs/eviction.md.
inline constexpr PolicyKind kDefaultPolicy = PolicyKind::kS3Fifo;

// One resident block as a policy holds it: what a live policy switch or resize
// carries from the old policy to the new one (TierIndex::rebuild_policy).
struct ResidentEntry {
  uint32_t slot = 0;
  uint64_t block = 0;
  // Accessed again since it entered the tier, as far as the policy knows: in
  // S3-FIFO's main queue or with a counter >= 2 in S, in ARC's T2, in 2Q's Am,
  // hit since it entered in LRU, visited bit set in SIEVE.
  bool frequent = false;
};

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

  // Live rebuild (a policy switch or a resize; docs/eviction.md "Live changes").
  // Appends every resident block to `out` in this policy's eviction order, the
  // next victim first: queue by queue, oldest first, in the order evict() takes
  // from them (S3-FIFO: S then M; ARC: T1 then T2; 2Q: A1in then Am; SIEVE:
  // from the hand toward the head, then from the tail). Second chances
  // (S3-FIFO's counters, SIEVE's visited bits) are not simulated.
  virtual void eviction_order(const ResidentBlocks& blocks, std::vector<ResidentEntry>* out) const = 0;
  // Makes `entries` (as eviction_order gives them: the next victim first) the
  // resident blocks of this policy, which must hold none yet: each block goes
  // to the queue its `frequent` bit selects (LRU: the one list, the bit kept;
  // SIEVE: the one queue, the first entry oldest, the hand unset), in the given
  // order, so the old policy's next victims are also the new one's. Access
  // counters start at 0 and ghost lists empty, as in a fresh policy.
  virtual void adopt(const std::vector<ResidentEntry>& entries) = 0;
};

// A policy of `kind` for a tier of `capacity_slots` (>= 1) blocks.
std::unique_ptr<EvictionPolicy> make_policy(PolicyKind kind, uint32_t capacity_slots);

}  // namespace tierwise::cache::eviction
