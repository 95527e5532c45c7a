// The write-back state of a CacheEngine (CacheEngine::WriteBack): private to
// the engine's write-back and tier-failure halves (cache_engine_writeback.cpp,
// cache_engine_tier_failure.cpp), which both need it whole.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cache/cache_engine.hpp"

namespace tierwise::cache {

// Burst of the destage rate limit: a tenth of a second at the limit.
inline constexpr uint64_t kDestageBurstDivisor = 10;
// Most acknowledgement sightings kept (WriteBack::acks_seen); older ones are
// dropped, which only lengthens a peer share to the next sighting kept.
inline constexpr size_t kMaxAcksSeen = 1024;

struct CacheEngine::WriteBack {
  WriteBackOptions options;
  writeback::TierLayout layout;
  CacheMode mode = CacheMode::kWriteBack;
  uint64_t next_seq = 1;
  uint64_t watermark = 0;        // durable W: records <= it are destaged and dead
  uint64_t durable_through = 0;  // every record <= it is flushed on the tier
  std::map<uint64_t, uint64_t> durable_ranges;  // flushed [first, last] above durable_through
  uint64_t generation = 0;       // of the newest superblock
  // Per ring entry: the block of the record it holds and its data bytes.
  std::vector<uint64_t> ring_block;
  std::vector<uint32_t> ring_bytes;
  std::unordered_map<uint64_t, DirtyBlock> dirty;
  // Blocks that left `dirty` when the watermark passed them, by that watermark,
  // until every peer confirmed the TRIM (ReplicaSink::trimmed_through): a peer
  // may still hold their records, so writes to them are still journaled.
  std::unordered_map<uint64_t, uint64_t> trim_pending;
  std::deque<Request*> ring_waiters;     // writes waiting for ring space, in order
  std::vector<Request*> replica_waiters;  // flushed, waiting for peers or destage
  std::vector<Request*> destage_waiters;  // writes parked until their blocks' destages land
  std::vector<Request*> unflushed;       // records written, not yet in a flush
  std::vector<Request*> flushing;        // covered by the tier flush in flight
  bool commit_in_flight = false;
  bool peers_failed = false;
  uint64_t replicated_through = 0;  // highest sequence number sent to the peers
  // When the engine saw the peers' acknowledgements reach a sequence number
  // still above durable_through: (acked_through, seen), both ascending, at most
  // kMaxAcksSeen. A write its peers held before its journal flush ended ends its
  // peer share there, not at the flush (IoOutcome::peer).
  std::deque<std::pair<uint64_t, std::chrono::steady_clock::time_point>> acks_seen;
  // Tier failure: 0 settling, 1 waiting for the peer's destage, 2 flushing the datastore.
  int tier_step = 0;
  std::chrono::steady_clock::time_point tier_failed_at{};  // I/O parked since then
  bool fenced = false;           // the lease was lost: no I/O, nothing more to the datastore
  // Destage failures in a row, and no new destage before `destage_resume`.
  uint64_t destage_failures = 0;
  std::chrono::milliseconds destage_backoff{0};
  writeback::TokenBucket::Clock::time_point destage_resume{};
  // A datastore flush failed: what was destaged since the last good flush may
  // be lost, so the watermark stays and destaging stops until recovery replays
  // the journal (a restart).
  bool datastore_failed = false;
  uint64_t epoch = 0;            // ownership generation (writeback/ownership.hpp)
  uint64_t superblock_epoch = 0; // the epoch in the newest durable superblock
  uint64_t advance_epoch = 0;    // the epoch the watermark advance in flight writes
  bool drain_reported = true;
  writeback::TokenBucket bucket;
  uint32_t destages_in_flight = 0;
  blockdev::RequestPool<Destage> destages;
  // Watermark advance in flight: datastore flush, superblock write, tier flush.
  bool advancing = false;
  int advance_step = 0;
  uint64_t advance_target = 0;
  blockdev::AlignedBytes superblock = blockdev::allocate_aligned(writeback::kSectorBytes, 4096);

  WriteBack(const WriteBackOptions& o, const writeback::TierLayout& l)
      : options(o), layout(l), ring_block(l.entry_count), ring_bytes(l.entry_count),
        bucket(o.destage_rate_bytes_per_s, o.destage_rate_bytes_per_s / kDestageBurstDivisor) {}
  size_t pos(uint64_t seq) const { return (seq - 1) % layout.entry_count; }
  bool needs_destage(const DirtyBlock& d) const { return d.destaged_seq < d.latest_seq; }
};

}  // namespace tierwise::cache
