// An eviction policy's miss ratio at one tier size, by simulating the engine's
// own hit/miss/eviction decisions (TierIndex and the policy) over a sequence
// of 4 KiB block references: the exact miss ratio curve of any policy, one
// size at a time (`tierwise-agent mrc --exact --eviction P`).
#pragma once

#include <cstdint>
#include <span>

#include "cache/eviction/eviction_policy.hpp"

namespace tierwise::cache {

/*
 * Misses of a tier of `capacity_blocks` (>= 1) 4 KiB blocks under `kind` over
 * `refs` (block numbers, in trace order), as the engine decides them at queue
 * depth 1 with the sequential cut-off off: a resident block is a hit
 * (TierIndex::touch), any other block a miss that admits it
 * (TierIndex::insert, evicting the policy's victim when the tier is full).
 * Reads and writes alike; the caller lists one reference per block each I/O
 * touches. A capacity of at least refs.size() blocks never evicts, so larger
 * ones are simulated at that size (same result).
 *
 * Time O(refs.size()) (amortised O(1) per reference, as the policies are);
 * memory O(min(capacity_blocks, distinct blocks)).
 */
uint64_t simulate_misses(eviction::PolicyKind kind, uint64_t capacity_blocks, std::span<const uint64_t> refs);

}  // namespace tierwise::cache
