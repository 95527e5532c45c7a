// S3-FIFO: Yang, Zhang, Qiu, Yue, Vinayak, "FIFO queues are all you need for
// cache eviction", SOSP 2023 (Algorithm 1).
#pragma once

#include <cstdint>
#include <vector>

#include "cache/eviction/eviction_policy.hpp"
#include "cache/eviction/ghost_list.hpp"
#include "cache/eviction/slot_lists.hpp"

namespace tierwise::cache::eviction {

/*
 * Three FIFO queues: a small queue S (10 % of the slots, at least one), a main
 * queue M (the rest) and a ghost queue G of evicted block numbers (as many
 * entries as 90 % of the slots: libCacheSim's ghost-size-ratio 0.9, i.e. the
 * size of M as in the paper). Each resident block has a 2-bit access counter
 * (capped at 3), set to 0 on insertion; a hit only increments it (no queue
 * move: "lazy promotion").
 *
 *   insert: into M if the block is in G (removed from G), else into S.
 *   evict:  if M holds more than its share or S is empty, from M: the tail
 *           with a counter > 0 is reinserted at M's head with the counter
 *           decremented, until a tail with counter 0 is evicted.
 *           Else from S ("quick demotion"): a tail accessed at least
 *           kMoveToMainThreshold (2) times since insertion moves to M (the
 *           paper's `t.freq > 1`, libCacheSim's move-to-main-threshold=2);
 *           otherwise it is evicted and its number goes to G. One-hit wonders
 *           thus leave from S without ever entering M.
 */
class S3FifoPolicy final : public EvictionPolicy {
 public:
  static constexpr double kSmallFraction = 0.10;
  static constexpr double kGhostFraction = 0.90;
  static constexpr uint8_t kMoveToMainThreshold = 2;
  static constexpr uint8_t kMaxFrequency = 3;

  explicit S3FifoPolicy(uint32_t capacity_slots);
  PolicyKind kind() const override { return PolicyKind::kS3Fifo; }
  void on_hit(uint32_t slot) override;
  void on_miss(uint64_t block) override { ghost_hit_ = ghost_.remove(block); }
  uint32_t evict(const ResidentBlocks& blocks) override;
  void on_insert(uint32_t slot, uint64_t block) override;
  void on_erase(uint32_t slot) override { lists_.remove(slot); }
  void eviction_order(const ResidentBlocks& blocks, std::vector<ResidentEntry>* out) const override;
  void adopt(const std::vector<ResidentEntry>& entries) override;

  // Introspection for tests: blocks in S and M, entries in G.
  uint32_t small_size() const { return lists_.size(kSmall); }
  uint32_t main_size() const { return lists_.size(kMain); }
  uint32_t small_capacity() const { return small_capacity_; }
  bool in_ghost(uint64_t block) const { return ghost_.contains(block); }
  bool in_main(uint32_t slot) const { return lists_.list_of(slot) == kMain; }

 private:
  static constexpr uint8_t kSmall = 0, kMain = 1;
  uint32_t evict_main();
  uint32_t evict_small(const ResidentBlocks& blocks);  // kNoSlot: S emptied into M

  uint32_t small_capacity_;
  uint32_t main_capacity_;
  SlotLists lists_;
  GhostList ghost_;
  std::vector<uint8_t> freq_;  // per slot
  bool ghost_hit_ = false;
};

}  // namespace tierwise::cache::eviction
