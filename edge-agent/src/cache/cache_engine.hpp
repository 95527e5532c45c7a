// Write-through cache engine at 4 KiB block granularity: a RAM (or any) tier
// in front of a datastore, both BlockDevices, with a choice of eviction policy.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "blockdev/aligned_buffer.hpp"
#include "blockdev/block_device.hpp"
#include "blockdev/request_pool.hpp"
#include "cache/eviction/eviction_policy.hpp"
#include "cache/sequential_cutoff.hpp"
#include "cache/tier_index.hpp"
#include "trace/record.hpp"

namespace tierwise::cache {

using trace::Direction;

// Cumulative counters of one engine since it was created. Blocks are 4 KiB.
struct CacheCounters {
  // 4 KiB blocks touched by front-end I/Os that were in the tier (hits) or not
  // (misses), indexed by Direction. A block partly covered by an I/O counts once.
  uint64_t hit_blocks[2] = {0, 0};
  uint64_t miss_blocks[2] = {0, 0};
  uint64_t population_bytes = 0;  // bytes inserted into the tier
  uint64_t eviction_bytes = 0;    // bytes evicted from the tier
  // Bytes read from the datastore to complete blocks that writes cover partly
  // (populate on write keeps whole 4 KiB blocks). Not part of any I/O's share.
  uint64_t fill_bytes = 0;
  // Bytes of missing blocks not inserted because their I/O was part of a
  // sequential stream (SequentialCutoff).
  uint64_t bypass_bytes = 0;
  uint64_t occupancy_bytes = 0;   // bytes held by the tier now
  uint64_t capacity_bytes = 0;    // tier capacity (a multiple of 4 KiB)
};

// How one part of a front-end I/O was served. bytes == 0: the source was not used.
struct SourceShare {
  uint32_t bytes = 0;
  int64_t latency_ns = 0;  // from the first request to that source to its last completion
};

// What happened to one front-end I/O.
struct IoOutcome {
  int status = 0;  // 0 or -errno (the first failure of any part)
  Direction direction = Direction::kRead;
  uint32_t length_bytes = 0;
  int64_t frontend_latency_ns = 0;  // submit() to completion: what the VM observes
  SourceShare cache;                // read bytes served from the tier
  SourceShare datastore;            // read misses and every write
};

using FrontendCompletion = void (*)(void* cb_arg, const IoOutcome& outcome);

// What a volume's tier keeps: eviction policy, sequential cut-off and the
// staging room of deferred eviction (TierIndex).
struct EvictionOptions {
  eviction::PolicyKind policy = eviction::kDefaultPolicy;
  // Bytes of a sequential stream from which its I/Os stop populating the tier;
  // 0: never (every miss populates, as the miss ratio curve assumes).
  uint64_t sequential_cutoff_bytes = SequentialCutoff::kDefaultCutoffBytes;
  // 4 KiB slots the tier device has beyond the capacity, for blocks whose
  // eviction waits for an in-flight I/O: with as many as the blocks that can
  // be in flight at once, hits and misses follow the policy at any queue depth.
  uint32_t staging_slots = 0;
};

/*
 * Lifecycle of a CacheEngine
 *
 * 1. create(): binds a datastore and a tier device (not owned; both outlive the
 *    engine) and the tier capacity. Both devices must accept 512-byte aligned
 *    ranges (block_size() divides 512).
 * 2. submit(): one front-end I/O (offset and length in bytes, multiples of 512;
 *    buffer aligned to the datastore's buffer_alignment()). Hits, misses, the
 *    policy's order, populations and evictions are decided at submission, so
 *    the counts do not depend on how completions interleave.
 *      read:  blocks in the tier are copied from it (source `cache`); runs of
 *             missing blocks are read from the datastore as whole 4 KiB blocks
 *             (source `datastore`), inserted into the tier (populate on miss),
 *             and the requested bytes copied out.
 *      write: goes to the datastore; the completion waits for it (write-through).
 *             Blocks already in the tier are updated; missing blocks are inserted
 *             (populate on write). A missing block the write covers only partly
 *             is read whole from the datastore alongside the write and the
 *             written bytes laid over it (a fill), so the tier only ever holds
 *             whole blocks and hits/misses follow plain block LRU, the model of
 *             the miss ratio curve. If the datastore write fails, the touched
 *             blocks leave the tier so it never holds data the datastore lacks;
 *             if only a fill fails, that block leaves the tier.
 *    The completion runs once, from the device pollers (or inside submit() when
 *    every part completed synchronously).
 * 3. Concurrent I/Os must not share a 4 KiB block (the caller serializes those,
 *    as a front end's range lock would); otherwise any number may be in flight.
 * 4. Destroy when in_flight() is 0.
 *
 * Eviction follows the volume's policy (EvictionOptions; eviction/ holds LRU,
 * S3-FIFO, ARC and 2Q). A victim still used by an in-flight I/O leaves the
 * index at once and frees its slot when that I/O completes (deferred eviction,
 * TierIndex); the missing block goes to a staging slot meanwhile, or is not
 * inserted when there is none. Missing blocks of I/Os in a sequential stream
 * of at least the cut-off are not inserted (SequentialCutoff).
 */
class CacheEngine {
 public:
  static constexpr uint32_t kBlockBytes = 4096;
  static constexpr uint32_t kSectorBytes = 512;

  // Returns 0, or -EINVAL when tier_capacity_bytes < 4096 or a device needs more
  // than 512-byte alignment. The tier device must hold tier_capacity_bytes plus
  // eviction.staging_slots * 4096 bytes.
  static int create(blockdev::BlockDevice& datastore, blockdev::BlockDevice& tier,
                    uint64_t tier_capacity_bytes, const EvictionOptions& eviction,
                    std::unique_ptr<CacheEngine>* out);
  // The same with the default EvictionOptions.
  static int create(blockdev::BlockDevice& datastore, blockdev::BlockDevice& tier,
                    uint64_t tier_capacity_bytes, std::unique_ptr<CacheEngine>* out) {
    return create(datastore, tier, tier_capacity_bytes, EvictionOptions{}, out);
  }
  ~CacheEngine();
  CacheEngine(const CacheEngine&) = delete;
  CacheEngine& operator=(const CacheEngine&) = delete;

  // Starts one front-end I/O. Returns 0 (accepted: `cb` will run once) or -EINVAL
  // (empty, unaligned or overflowing range, or unaligned buffer; `cb` never runs).
  int submit(Direction direction, uint64_t offset, uint32_t length, void* buf,
             FrontendCompletion cb, void* cb_arg);
  // Passes a flush to the datastore (a write-through tier holds nothing dirty).
  int submit_flush(blockdev::IoCompletion cb, void* cb_arg);

  const CacheCounters& counters() const { return counters_; }
  const TierIndex& index() const { return index_; }
  uint64_t in_flight() const { return in_flight_; }

 private:
  struct Request;
  // Consecutive blocks read whole from the datastore: a read's misses, or one
  // block a write covers partly, whose other bytes the tier needs.
  struct MissRun {
    Request* req;
    uint32_t first;  // index of the run's first block within the request
    uint32_t count;  // blocks
  };
  struct BlockPlan {
    uint32_t slot;  // TierIndex::kNoSlot: not in the tier and not inserted
    bool fresh;     // inserted by this request (undone if the request fails)
    bool unfilled;  // its fill read failed: leaves the tier at the end
  };
  using Clock = std::chrono::steady_clock;
  struct Request {
    CacheEngine* engine;
    Direction direction;
    uint64_t offset;
    uint32_t length;
    std::byte* buf;
    FrontendCompletion cb;
    void* cb_arg;
    uint64_t first_block;
    uint32_t pending;
    int status;
    Clock::time_point start, cache_start, cache_end, datastore_start, datastore_end;
    uint32_t cache_bytes, datastore_bytes;
    std::vector<BlockPlan> plan;  // one per 4 KiB block touched
    std::vector<MissRun> runs;
    blockdev::AlignedBytes bounce;  // whole blocks read from the datastore
    size_t bounce_bytes = 0;
  };

  CacheEngine(blockdev::BlockDevice& datastore, blockdev::BlockDevice& tier, uint32_t slots,
              const EvictionOptions& eviction)
      : datastore_(datastore),
        tier_(tier),
        index_(slots, slots + eviction.staging_slots, eviction::make_policy(eviction.policy, slots)),
        cutoff_(eviction.sequential_cutoff_bytes) {}
  void plan_blocks(Request* r);
  void start_read(Request* r);
  void start_write(Request* r);
  // Makes the bounce buffer hold every block of the request; false (and the
  // request failed with -ENOMEM) when memory is exhausted.
  bool reserve_bounce(Request* r);
  // Reads every run from the datastore into the bounce buffer; 0 or -errno.
  int submit_runs(Request* r);
  // A run arrived: a read copies the requested bytes out, a write lays its bytes
  // over the old block; then the whole blocks go into the tier.
  void fill_from_run(MissRun* run);
  // Bytes of block `i` of the request that the front-end I/O covers: [lo, hi) in
  // volume byte offsets.
  void covered(const Request* r, uint32_t i, uint64_t* lo, uint64_t* hi) const;
  void fail(Request* r, int status);
  void put(Request* r);  // one part done
  void finish(Request* r);

  static void on_tier_read(void* arg, int status);
  static void on_tier_write(void* arg, int status);
  static void on_datastore_read(void* arg, int status);
  static void on_datastore_write(void* arg, int status);

  blockdev::BlockDevice& datastore_;
  blockdev::BlockDevice& tier_;
  TierIndex index_;
  SequentialCutoff cutoff_;
  CacheCounters counters_;
  uint64_t in_flight_ = 0;
  blockdev::RequestPool<Request> requests_;
};

}  // namespace tierwise::cache
