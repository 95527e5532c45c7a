// Cache engine at 4 KiB block granularity: a RAM or flash tier in front of a
// datastore, both BlockDevices, with a choice of eviction policy; write-through,
// or write-back with a journal on a persistent tier and peer replicas (WB+n).
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "blockdev/aligned_buffer.hpp"
#include "blockdev/block_device.hpp"
#include "blockdev/request_pool.hpp"
#include "cache/writeback/journal_format.hpp"
#include "cache/writeback/journal_recovery.hpp"
#include "cache/writeback/ownership.hpp"
#include "cache/writeback/replica_sink.hpp"
#include "cache/writeback/token_bucket.hpp"
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
  // Write-back (all zero in write-through):
  uint64_t destaged_bytes = 0;    // dirty bytes written back to the datastore
  uint64_t dirty_bytes = 0;       // 4 KiB blocks awaiting destage, in bytes, now
  uint64_t backlog_bytes = 0;     // journal data bytes not yet reclaimed, now
  uint64_t journal_bytes = 0;     // record bytes (header + data) written to the journal
  uint64_t replicated_bytes = 0;  // record bytes sent to each peer
  uint64_t fallbacks = 0;         // write-back -> write-through after a peer or the tier failed
  uint64_t destage_errors = 0;    // destage writes the datastore failed (retried with back-off)
  // Tier I/O errors (reads, writes, flushes). The first one disables the tier
  // for good: every I/O goes to the datastore (CacheEngine "Tier failure").
  uint64_t tier_errors = 0;
  bool tier_disabled = false;     // the tier failed and is no longer used
  uint64_t destage_rate_limit_bytes_per_s = 0;  // 0: unlimited
  uint32_t healthy_peers = 0;     // peers acknowledging records now
  bool write_back = false;        // mode() is write-back now
};

enum class CacheMode : uint8_t { kWriteThrough, kWriteBack };


// How one part of a front-end I/O was served. bytes == 0: the source was not used.
struct SourceShare {
  uint32_t bytes = 0;
  int64_t latency_ns = 0;  // from the first request to that source to its last completion
};

// What happened to one front-end I/O.
struct IoOutcome {
  // 0 or -errno (the first failure of any part; a failed tier part is not
  // one: the I/O is served again from the datastore, "Tier failure").
  int status = 0;
  Direction direction = Direction::kRead;
  uint32_t length_bytes = 0;
  int64_t frontend_latency_ns = 0;  // submit() to completion: what the VM observes
  // When it completed: std::chrono::steady_clock (CLOCK_MONOTONIC), nanoseconds
  // since its epoch. The I/O's time stamp for collectors, so they need no clock
  // read of their own.
  int64_t completion_ns = 0;
  // Read bytes served from the tier; in write-back, the bytes of a write
  // journaled on the tier instead of the datastore (latency: until the group
  // commit's flush made them durable there).
  SourceShare cache;
  SourceShare datastore;            // read misses and every write-through write
  // WB+n: the bytes of a write-back write whose journal records went to the
  // peers (each peer holds one copy; tierwise.replication.bytes counts the
  // traffic). Latency: from sending its first record to the engine seeing every
  // peer's acknowledgement (on its poll turn). Not set when a peer failed first.
  SourceShare peer;
};

using FrontendCompletion = void (*)(void* cb_arg, const IoOutcome& outcome);

// What a volume's tier keeps: eviction policy, sequential cut-off and the
// staging room of deferred eviction (TierIndex).
struct EvictionOptions {
  eviction::PolicyKind policy = eviction::kDefaultPolicy;
  // Bytes of a sequential stream from which its I/Os stop populating the tier;
  // 0: never (the default: every miss populates, as the miss ratio curve
  // assumes; see SequentialCutoff).
  uint64_t sequential_cutoff_bytes = 0;
  // 4 KiB slots the tier device has beyond the capacity, for blocks whose
  // eviction waits for an in-flight I/O: with as many as the blocks that can
  // be in flight at once, hits and misses follow the policy at any queue depth.
  uint32_t staging_slots = 0;
};

// Write-back settings of one volume (CacheEngine::open_write_back).
struct WriteBackOptions {
  uint64_t volume_id = 0;          // stored in the journal; recovery refuses another volume's
  uint32_t journal_entries = 16384;  // ring entries (4608 bytes each on the tier), >= 64
  uint64_t destage_rate_bytes_per_s = 0;  // destager rate limit; 0: unlimited
  // n peers (WB+n) or nullptr (WB+0). Not owned; outlives the engine.
  writeback::ReplicaSink* replicas = nullptr;
  // The volume's ownership lease (WB+n: fencing after an owner loss,
  // writeback/ownership.hpp) or nullptr. Not owned; outlives the engine.
  writeback::Ownership* ownership = nullptr;
  EvictionOptions eviction;  // the tier's eviction policy and staging slots
  // Runs device completions while open_write_back recovers (UringQueue::poll(true)).
  writeback::PollDevices poll;
  // Events (mode changes, peer failures), one line each; may be empty.
  std::function<void(std::string_view)> on_event;
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
 *             whole blocks and hits/misses follow the block-level eviction policy
 *             the miss ratio curves model (docs/analytics.md). If the datastore write fails, the touched
 *             blocks leave the tier so it never holds data the datastore lacks;
 *             if only a fill fails, that block leaves the tier.
 *    The completion runs once, from the device pollers (or inside submit() when
 *    every part completed synchronously).
 * 3. Concurrent I/Os must not share a 4 KiB block (the caller serializes those,
 *    as a front end's range lock would); otherwise any number may be in flight.
 * 4. Destroy when in_flight() is 0.
 *
 * Eviction follows the volume's policy (EvictionOptions; eviction/ holds the
 * policies, docs/eviction.md). A victim still used by an in-flight I/O leaves the
 * index at once and frees its slot when that I/O completes (deferred eviction,
 * TierIndex); the missing block goes to a staging slot meanwhile, or is not
 * inserted when there is none. Missing blocks of I/Os in a sequential stream
 * of at least the cut-off are not inserted (SequentialCutoff).
 *
 * Write-back (open_write_back; cache_engine_writeback.cpp, docs/write-back.md).
 * The tier is laid out as journal_format.hpp describes: superblocks, a journal
 * ring, then the cache slots. In write-back a write is journaled: one record
 * per 4 KiB block (the written sectors), written to the ring and flushed
 * (group commit: one tier flush for every record completed meanwhile), sent to
 * the n peers, and acknowledged once flushed locally and acknowledged by every
 * peer. The block is updated in its cache slot as in write-through and stays
 * pinned (never evicted) until destaged. tick() runs the destager: oldest
 * records first, whole blocks read from their slots and written to the
 * datastore within the rate limit; then the datastore is flushed and the
 * superblock's watermark raised, which frees ring entries.
 *  - A write whose blocks cannot all get a slot, or any write in write-through,
 *    goes to the datastore; blocks of it that are still dirty are journaled too,
 *    so no older record can later overwrite it (recovery and destage replay
 *    records in order).
 *  - set_mode(kWriteThrough) is live: new writes stop creating dirty blocks and
 *    the destager drains the backlog unthrottled; mode() reports write-back
 *    until every record is destaged and the watermark is durable. A failed peer
 *    does the same (fallback, counted in `fallbacks`, reported via on_event);
 *    writes waiting for that peer are acknowledged once destaged.
 *  - When the ring is full, writes wait (in submission order) for the destager.
 *  - A write to a block whose destage is in flight waits until that destage
 *    landed on the datastore, so two datastore writes of one block are never
 *    in flight together (the lifecycle in cache_engine_writeback.cpp).
 *  - FLUSH: write-back acknowledgements are already durable (FUA); submit_flush
 *    flushes the datastore for the write-through writes.
 *  - A RAM tier cannot hold a journal (it does not survive the process): write-back
 *    needs a persistent tier (BlockDevice::persistent()).
 *
 * Tier failure (cache_engine_tier_failure.cpp, docs/write-back.md "Tier
 * failure"). The first error of any tier read, write or flush disables the
 * tier for good; an I/O that a failed tier part spoiled is served again from
 * the datastore, so the client sees no error.
 *  - Write-through: from then on every I/O goes straight to the datastore.
 *  - Write-back: new and spoiled I/Os are parked while the journal's records
 *    above the watermark reach the datastore from elsewhere: I/O in flight
 *    settles, one peer writes every record it holds to the datastore
 *    (ReplicaSink::destage), the datastore is flushed, the lease moves to the
 *    next epoch (so a restart on the failed tier discards its journal as
 *    fenced) and the peers trim. Then the volume runs as write-through without
 *    the tier and the parked I/Os start. Without a peer (WB+0, or after the
 *    peers failed) or without a lease, records above the watermark have no
 *    other copy: the volume becomes unavailable (every I/O fails with EIO,
 *    tier_unavailable()) until an operator restarts it on a repaired tier.
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
  // A write-back engine: recovers the tier's journal into the datastore
  // (journal_recovery.hpp; `report` says what it found) and starts in write-back.
  // The tier needs journal space before its slots: TierLayout::for_entries().
  // Returns 0; -EINVAL for bad options (fewer than 64 journal entries, or fewer
  // than twice as many slots as entries) or another volume's journal; -ENOTSUP
  // for a tier that is not persistent; -EIO when recovery found an acknowledged
  // record damaged; any device -errno. `error` says which.
  static int open_write_back(blockdev::BlockDevice& datastore, blockdev::BlockDevice& tier,
                             uint64_t tier_capacity_bytes, const WriteBackOptions& options,
                             std::unique_ptr<CacheEngine>* out, writeback::RecoveryReport* report,
                             std::string* error);
  ~CacheEngine();
  CacheEngine(const CacheEngine&) = delete;
  CacheEngine& operator=(const CacheEngine&) = delete;

  // Starts one front-end I/O. Returns 0 (accepted: `cb` will run once), -EINVAL
  // (empty, unaligned or overflowing range, or unaligned buffer; with write-back,
  // a write covering more than half the journal's entries in 4 KiB blocks) or
  // -EIO once fenced() or tier_unavailable(); `cb` then never runs.
  int submit(Direction direction, uint64_t offset, uint32_t length, void* buf,
             FrontendCompletion cb, void* cb_arg);
  // Passes a flush to the datastore: write-through writes become durable
  // (write-back acknowledgements already are).
  int submit_flush(blockdev::IoCompletion cb, void* cb_arg);
  // Discards (TRIM) the whole 4 KiB blocks inside [offset, offset + length):
  // they leave the tier and are deallocated on the datastore
  // (BlockDevice::submit_discard), so they read as zeros afterwards. The parts
  // of blocks the range covers only partly keep their data. Follows rule 3 like
  // submit(). Returns 0 (accepted: `cb` runs once with 0 or -errno, e.g.
  // -EOPNOTSUPP when the datastore cannot deallocate) or -EINVAL for an empty or
  // unaligned range, or -EOPNOTSUPP in write-back mode (dirty blocks stay
  // until destaged). Not counted as an I/O.
  int submit_discard(uint64_t offset, uint32_t length, blockdev::IoCompletion cb, void* cb_arg);

  // Switches the mode live. Returns 0; -ENOTSUP for write-back on an engine made
  // by create() (no journal); -EPIPE for write-back when the peers have failed;
  // -EIO for write-back once the tier failed ("Tier failure").
  int set_mode(CacheMode mode);
  // kWriteBack while any record is not yet destaged (also while draining).
  CacheMode mode() const;
  // Background work of write-back: peer acknowledgements, group commit, the
  // destager, the watermark. Call it from the polling loop after every poll
  // (and at least every millisecond while mode() is write-back). Cheap when idle.
  void tick();
  // True once the ownership lease (WriteBackOptions::ownership) was lost: another
  // epoch owns the volume, so this engine serves no I/O and writes nothing more
  // to the datastore (docs/write-back.md "Owner loss").
  bool fenced() const;
  // True once a tier failure left write-back records whose only copy was on
  // the failed tier: every I/O fails with EIO ("Tier failure").
  bool tier_unavailable() const { return tier_state_ == TierState::kUnavailable; }
  // Events (mode changes, peer and tier failures), one line each. open_write_back
  // takes WriteBackOptions::on_event; a write-through engine gets it here.
  void set_on_event(std::function<void(std::string_view)> on_event) { on_event_ = std::move(on_event); }
  // True while write-back has anything to do (waiting writes, a backlog).
  bool busy() const;

  // Live tier resize (docs/eviction.md "Live changes"): the tier holds at most
  // capacity_bytes from now on. Growing makes the extra slots usable at once;
  // shrinking evicts the policy's victims down to the new size at once. A
  // dirty block (write-back) is never a victim: it keeps its slot until
  // destaged (TierIndex::hold), and as the journal holds at most half as many
  // records as the tier has slots there are always clean victims enough. A
  // victim used by an in-flight I/O keeps its slot until that I/O completes
  // (deferred eviction). `device_room_bytes`: what the tier device has for slots beyond
  // the journal and the staging room (EvictionOptions::staging_slots).
  // Returns 0; -EINVAL for 0 bytes, a size that is not a multiple of 4096 or,
  // in write-back, fewer slots than twice the journal's entries; -ENOSPC for a
  // size beyond device_room_bytes. Call on the thread that drives the engine.
  int set_tier_capacity(uint64_t capacity_bytes, uint64_t device_room_bytes);
  // Live eviction policy switch: the new policy takes the resident blocks in
  // the old one's eviction order (TierIndex::switch_policy); none is lost,
  // duplicated, evicted or re-read, and in-flight I/O is not disturbed.
  void set_eviction_policy(eviction::PolicyKind kind) { index_.switch_policy(kind); }

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
    uint64_t seq = 0;  // its journal record, 0: not journaled
    // Journaled and written to the datastore: once this write lands there, the
    // datastore holds the block's newest content (the write covers the whole
    // block, or no older record of it awaited destage).
    bool completes_block = false;
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
    int tier_status;  // the first failure of a tier part (the I/O is served again)
    Clock::time_point start, cache_start, cache_end, datastore_start, datastore_end, peer_start,
        peer_end;
    uint32_t cache_bytes, datastore_bytes, peer_bytes;
    std::vector<BlockPlan> plan;  // one per 4 KiB block touched
    std::vector<MissRun> runs;
    blockdev::AlignedBytes bounce;  // whole blocks read from the datastore
    size_t bounce_bytes = 0;
    // Write-back: journal records [first_seq, last_seq], all in `records`.
    bool to_datastore;  // the write goes to the datastore (write-through)
    uint64_t first_seq, last_seq;
    uint32_t record_writes;  // journal writes not yet completed
    bool awaiting_replicas;  // every other part done: waits for peers or destage
    blockdev::AlignedBytes records;
    size_t records_bytes = 0;
  };
  // A block with a journal record above the durable watermark.
  struct DirtyBlock {
    uint64_t latest_seq = 0;    // its newest record
    uint64_t destaged_seq = 0;  // records <= this are on the datastore
    uint32_t pinned_slot = TierIndex::kNoSlot;  // held in the tier until destaged
    Request* writer = nullptr;  // the in-flight write journaling it (one at a time)
    bool destaging = false;
  };
  struct Destage {
    CacheEngine* engine;
    uint64_t block;
    uint64_t seq;  // the block's latest record when the destage started
    blockdev::AlignedBytes buf;
  };
  struct WriteBack;  // journal and destager state (cache_engine_writeback.cpp)
  enum class TierState : uint8_t {
    kHealthy,
    kRecovering,   // write-back: I/O parked while the peers destage the journal
    kBypassed,     // the tier is not used: every I/O goes to the datastore
    kUnavailable,  // write-back records were only on the failed tier: EIO
  };
  CacheEngine(blockdev::BlockDevice& datastore, blockdev::BlockDevice& tier, uint32_t slots,
              const EvictionOptions& eviction);
  uint64_t slot_offset(uint32_t slot) const { return slot_base_ + uint64_t{slot} * kBlockBytes; }
  void start(Request* r);
  // Clears what one attempt at `r` decided (plan, records, shares, statuses).
  static void reset_attempt(Request* r);
  // Tier failure (cache_engine_tier_failure.cpp).
  void tier_fail(Request* r, int status);       // a tier part of `r` failed
  void tier_error(int status, std::string_view what);  // the tier failed
  // A request whose tier part failed, at its end: true when it was parked or
  // started again from the datastore (instead of completing).
  bool retry_without_tier(Request* r);
  void start_direct(Request* r);   // the whole I/O to or from the datastore
  void continue_tier_recovery();   // write-back: the next step, from tick()
  void finish_tier_recovery();
  void make_unavailable(const std::string& why);
  static void on_tier_recovery_flushed(void* arg, int status);
  // Write-back: true (and `r` queued) when the journal ring lacks room for one
  // record per block of `r`, or earlier writes are queued already.
  bool wait_for_ring(Request* r);
  // Write-back: true (and `r` parked) when a block of `r` has a destage in
  // flight; the destage's completion starts `r` again (resume_destage_waiters).
  bool wait_for_destages(Request* r);
  bool destage_in_flight(const Request* r) const;
  void resume_destage_waiters();
  // Write-back: whether a write of these bytes fits in half of the ring.
  bool journal_fits(uint64_t offset, uint32_t length) const;
  // Write-back: `slot` holds `block` as a dirty block awaiting destage.
  bool dirty_pinned(uint64_t block, uint32_t slot) const;
  // Write-back: decides which blocks are journaled and whether the write also
  // goes to the datastore; assigns sequence numbers; marks blocks dirty.
  void plan_journal(Request* r);
  void submit_records(Request* r);
  void journal_done(Request* r);   // records flushed: now wait for peers
  // No longer waits for peers: ends its peer share at `acked` (when the engine
  // saw every peer's acknowledgement of it).
  void replicas_done(Request* r, Clock::time_point acked);
  // When the engine first saw the peers' acknowledgements reach `seq`; now if
  // it has not (the record was destaged first, or the sighting is this turn's).
  Clock::time_point acked_at(uint64_t seq) const;
  void note_acks();  // records a new acknowledgement sighting (WriteBack::acks_seen)
  bool replicated(const Request* r) const;
  // The block's slot may be read for a destage: no write is changing it.
  static bool slot_settled(const DirtyBlock& d);
  void report_drained();
  void finish_journal(Request* r);  // dirty-map bookkeeping at completion
  void start_group_commit();
  void start_destages();
  void start_destage(uint64_t block, DirtyBlock& d);
  // A destage of `d` carrying its record `seq` landed: raises destaged_seq; a
  // block with nothing newer is clean (its slot hold released).
  void account_destage(DirtyBlock& d, uint64_t seq);
  void destage_failed(uint64_t block, int status);
  void advance_epoch();
  void forget_trimmed();
  void destage_succeeded();
  void advance_watermark();
  void release_waiters();
  void check_peers();
  // True (and reported once) when the ownership lease was lost (fenced).
  bool check_ownership();
  void event(std::string_view text);
  // Fewest slots the tier may be resized to: twice the journal's entries in
  // write-back (open_write_back's rule), else 1.
  uint64_t min_slots() const;
  // occupancy_bytes: the index's blocks, or 0 once the tier is disabled.
  void count_occupancy();
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
  // Releases the request's tier slots (and dirty-map bookkeeping) at its end.
  void release_plan(Request* r);

  static void on_tier_read(void* arg, int status);
  static void on_tier_write(void* arg, int status);
  static void on_datastore_read(void* arg, int status);
  static void on_datastore_write(void* arg, int status);
  static void on_record_written(void* arg, int status);
  static void on_commit_flushed(void* arg, int status);
  static void on_destage_read(void* arg, int status);
  static void on_destage_written(void* arg, int status);
  static void on_watermark_step(void* arg, int status);

  blockdev::BlockDevice& datastore_;
  blockdev::BlockDevice& tier_;
  TierIndex index_;
  SequentialCutoff cutoff_;
  CacheCounters counters_;
  uint64_t in_flight_ = 0;
  blockdev::RequestPool<Request> requests_;
  uint64_t slot_base_ = 0;  // tier offset of slot 0 (after the journal in write-back)
  std::unique_ptr<WriteBack> wb_;  // null: write-through only
  TierState tier_state_ = TierState::kHealthy;
  std::vector<Request*> tier_retry_;  // parked while kRecovering
  std::function<void(std::string_view)> on_event_;
};

}  // namespace tierwise::cache
