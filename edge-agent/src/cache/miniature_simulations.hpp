// Miniature simulations (C. A. Waldspurger, T. Saemundsson, I. Ahmad, N. Park,
// "Cache Modeling and Optimization using Miniature Simulations", USENIX ATC
// 2017) of the engine's own eviction policies over a volume's SHARDS-sampled
// 4 KiB block references: what each policy would miss at each cache size of a
// grid, shipped in every ReferenceBatch (proto/tierwise/v1/reference_batch.proto,
// MiniatureSimulation) so that the service's per-policy miss ratio curves are
// the cache that runs, not a mirror of it (docs/analytics.md, "Every policy's
// miss ratio curve").
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "cache/eviction/eviction_policy.hpp"
#include "cache/tier_index.hpp"

namespace tierwise::cache {

/*
 * Lifecycle
 *
 * 1. Construct with SHARDS' P and the agent's T now (a block is sampled while
 *    H(L) mod P < T), the grid of cache sizes and the bound of a miniature
 *    cache (max_blocks).
 * 2. Per batch of sampled references: follow_agent_threshold(the batch's T),
 *    then reference() for each of its references in order, then take_counts().
 *
 * Parts (a host's shared tier: parts = its volumes). Several streams merged in
 * time order into one simulation, each reference counted for its part, so that
 * each part's take_counts() gives what its references did in the shared tier
 * and the parts' counts add up to the tier's. A part takes its counts when it
 * likes (a volume, as it emits its batch); a size's T_C may fall meanwhile, so
 * a part's counts of one size come as one entry per T_C they were taken at.
 *
 * A rate per size (the paper's section 3, bounded as fixed-size SHARDS bounds
 * its sample): size C (blocks) simulates the references whose block is in its
 * own sample, H mod P < T_C, T_C = min(T, floor(P x min(1, max_blocks / C))),
 * in a tier of max(1, round(C x T_C / P)) blocks, so every miniature tier holds
 * at most max_blocks blocks whatever the footprint, and small sizes run at the
 * agent's full rate. When the agent's T falls below a size's T_C, T_C falls to
 * 7/8 of the agent's (lowerings in steps, not per batch): the blocks that left
 * the sample are dropped from every policy's tier (TierIndex::drop_if) and the
 * tier is resized as the engine resizes a live tier (TierIndex::resize: access
 * counters and ghost entries start afresh). The same rules as the service's
 * Java mirror (stream-jobs MiniatureSimulations, still used for shared tiers);
 * with no lowering the counts are equal (EngineMirrorTest: the mirrors miss
 * where the engine does).
 *
 * Each policy runs in a TierIndex of its own, driven as the engine drives it
 * at queue depth 1 with the sequential cut-off off (cache::simulate_misses).
 * A size's tiers are made at its first sampled reference. Memory: at most
 * sizes x policies x max_blocks resident blocks (and the policies' ghosts).
 * Not thread-safe.
 */
class MiniatureSimulations {
 public:
  // The most blocks one miniature tier holds (the service's default too).
  static constexpr uint32_t kDefaultMaxBlocks = 512;
  // A size's T_C falls to this fraction of the agent's T when T falls below it.
  static constexpr uint64_t kLoweringNumerator = 7;
  static constexpr uint64_t kLoweringDenominator = 8;
  static constexpr uint64_t kBlockBytes = 4096;

  // One size's counts over the references since the last take_counts().
  struct SizeCounts {
    uint64_t cache_bytes = 0;
    uint64_t threshold = 0;        // T_C those references were sampled at
    uint64_t references = 0;       // references in the size's sample
    uint64_t read_references = 0;  // the reads among them
    std::vector<uint64_t> misses;       // per policy (policies() order)
    std::vector<uint64_t> read_misses;  // per policy, reads only
  };

  // The service's grid (stream-jobs MissRatioCurve.cacheSizeGrid of 32 GiB):
  // 4 MiB, 6 MiB, 8 MiB, 12 MiB, ... doubling with a half step, to 64 GiB.
  static std::vector<uint64_t> default_cache_bytes();

  // modulus P > 0; 0 < agent_threshold <= P; cache_bytes strictly increasing,
  // each at least one 4 KiB block; max_blocks >= 1 (throws
  // std::invalid_argument otherwise); parts: how many to start with (add_part
  // adds more).
  MiniatureSimulations(uint64_t modulus, uint64_t agent_threshold,
                       std::vector<uint64_t> cache_bytes = default_cache_bytes(),
                       uint32_t max_blocks = kDefaultMaxBlocks, size_t parts = 1);

  // Adds a part (a volume joining its host's tier); returns its index.
  size_t add_part();

  // Every policy of the engine, in eviction::all_policies() order.
  const std::vector<eviction::PolicyKind>& policies() const { return eviction::all_policies(); }

  // Follows the agent's T (call it with each batch's T before its
  // references): no effect unless it is below a size's T_C. Throws
  // std::invalid_argument for T = 0 or T > P.
  void follow_agent_threshold(uint64_t agent_threshold);

  // One sampled reference (H(L) of its 4 KiB block), in time order, of part
  // `part` (throws std::out_of_range unless < parts).
  void reference(uint64_t block_hash, bool write, size_t part = 0);

  // Appends to `out` part `part`'s counts of each size that saw one of its
  // references since its last take, ascending by size (and by falling T_C
  // within a size), and starts its counts afresh.
  void take_counts(std::vector<SizeCounts>* out, size_t part = 0);

 private:
  struct Size {
    uint64_t bytes = 0;
    uint64_t blocks = 0;
    uint64_t ceiling = 0;  // T_C at the agent's full rate: P x min(1, max_blocks / C)
    uint64_t threshold = 0;
    std::vector<std::unique_ptr<TierIndex>> tiers;  // per policy; empty until the first reference
    std::vector<std::vector<SizeCounts>> pending;   // per part: its counts, one entry per T_C
  };
  uint32_t capacity(const Size& s) const;
  void check_part(size_t part) const;  // throws std::out_of_range unless part < parts

  uint64_t modulus_;
  size_t parts_;
  std::vector<Size> sizes_;
};

}  // namespace tierwise::cache
