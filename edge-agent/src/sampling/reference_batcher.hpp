// Turns one volume's I/Os into tierwise.v1.ReferenceBatch messages
// (proto/tierwise/v1/reference_batch.proto), sent in POST /v1/refs/batches: the
// SHARDS-sampled block references (or their summary, ReferenceSummary, where
// the service needs no reference: set_summarise_references), each batch's miniature simulations of the
// engine's eviction policies over them (cache::MiniatureSimulations, fed each
// sampled reference as it is kept, so no emit stalls the data plane), what they
// add to the service's working-set windows (WorkingSetWindows, fed the same
// way), and for
// the whole stream the count of
// considered references N, the distinct-block sketch (DistinctBlockSketch) and,
// unless turned off, the hits of an exact 4 MiB LRU cache (LruAnchor). The
// anchor is on where references are sampled off the data path (replay,
// sample-refs) and opt-in on the live one (`serve --lru-anchor`): it runs on
// every block reference and costs about 1 % of the IOPS of 4 KiB random I/O
// (docs/nbd.md).
//
// Bounded sample (fixed-size SHARDS at the agent: Waldspurger et al., FAST 2015,
// section 4). The threshold T starts at the sampler's and only falls: the
// batcher keeps the distinct priorities H(L) mod P of the blocks in the sample
// (sorted, 4 bytes each); when they exceed max_sampled_blocks it drops the
// largest quarter and lowers T to the smallest priority dropped, so the sample
// holds between 3/4 and 1 x max_sampled_blocks blocks whatever the footprint,
// and T falls only about log_{4/3}(footprint / max) times. A batch carries one
// T, so the open batch is emitted before T falls. The service's fixed-size
// estimator (kServiceMaxSamples = 8,192 blocks, stream-jobs ShardsFixedSize)
// keeps the 8,192 smallest priorities and lowers T further, and every window
// reads off that one sample; the default bound is 4/3 of it (rounded up), so
// the sample still holds the service's 8,192 blocks after a drop and the agent
// ships little that the service throws away (docs/analytics.md, "Sampling:
// where the bound is"). max_sampled_blocks = 0 keeps the fixed rate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cache/miniature_simulations.hpp"
#include "sampling/distinct_block_sketch.hpp"
#include "sampling/lru_anchor.hpp"
#include "sampling/reference_summary.hpp"
#include "sampling/shards_sampler.hpp"
#include "sampling/unsampled_blocks.hpp"
#include "sampling/working_set_windows.hpp"
#include "tierwise/v1/reference_batch.pb.h"
#include "trace/blocks.hpp"
#include "trace/record.hpp"

namespace tierwise::sampling {

class ReferenceBatcher {
 public:
  // Most references per batch (keeps a batch well below ingest's size limit).
  static constexpr size_t kMaxReferencesPerBatch = 10'000;
  // s_max of the service's fixed-size sample, the one every window reads off
  // (stream-jobs ShardsFixedSize.DEFAULT_MAX_SAMPLES; docs/analytics.md,
  // "Sampling: where the bound is"). Change both together.
  static constexpr size_t kServiceMaxSamples = 8'192;
  // Default bound of the sample: ceil(kServiceMaxSamples x 4/3) = 10,923, so
  // that after dropping its largest quarter the sample still holds the
  // service's s_max blocks (8,193): the service's sample is always a subset of
  // the agent's, and the agent ships little more than the service keeps.
  static constexpr size_t kDefaultMaxSampledBlocks = (kServiceMaxSamples * 4 + 2) / 3;
  static_assert(kDefaultMaxSampledBlocks - kDefaultMaxSampledBlocks / 4 >= kServiceMaxSamples,
                "after a drop the sample must still hold the service's s_max blocks");

  // Receives each complete batch.
  using Sink = std::function<void(const tierwise::v1::ReferenceBatch&)>;

  // host_id, volume_id: pseudonymous ids (KeyedHasher::host_id/volume_id).
  // Every batch records the sampler's P and T; `sampler` must outlive the
  // batcher. sketch_precision: p of the distinct-block sketch (throws
  // std::invalid_argument outside DistinctBlockSketch's range).
  // max_sampled_blocks: bound of the sample (0: fixed rate, T never falls).
  // lru_anchor: count the LRU anchor's hits (false: batches carry no anchor).
  ReferenceBatcher(std::string host_id, std::string volume_id, const ShardsSampler& sampler, Sink sink,
                   unsigned sketch_precision = DistinctBlockSketch::kDefaultPrecision,
                   size_t max_sampled_blocks = kDefaultMaxSampledBlocks, bool lru_anchor = true);

  // Considers every 4 KiB block `io` touches (trace::blocks_touched), one
  // reference each: counts it in considered_references and in the LRU anchor's
  // hits when it hits there (LruAnchor, every block, when on), adds H(L) to the
  // distinct-block sketch, and keeps a reference (direction, I/O length in
  // blocks, time `time_us`) when the block is sampled, simulated at once in the
  // miniature simulations. A block already found
  // outside the sample is neither hashed nor added again (UnsampledBlocks:
  // the outcome is the same). Emits a batch each time
  // kMaxReferencesPerBatch references are pending, so N is split exactly at the
  // batch's last reference. time_us: microseconds (Unix epoch or trace clock),
  // >= 0 and not before the previous I/O's; throws std::invalid_argument
  // otherwise. Returns the number of references kept.
  // Inline: once per I/O of the data plane; a block known to be outside the
  // sample costs a bit test, the rest goes to consider().
  size_t add(const trace::IoRecord& io, int64_t time_us) {
    if (time_us < last_time_us_) [[unlikely]] reject_time(time_us);
    last_time_us_ = time_us;
    const trace::BlockRange blocks = trace::blocks_touched(io);
    size_t kept = 0;
    for (uint64_t block = blocks.first; block <= blocks.last; ++block) {
      if (!open_) start_batch(time_us);
      ++considered_;
      if (anchor_) anchor_->add(block);
      if (unsampled_.contains(block)) continue;  // known: no hash, nothing new for the sketch
      kept += consider(block, io.direction, static_cast<uint32_t>(blocks.count()), time_us);
    }
    return kept;
  }

  // Emits the pending references and considered count, if any, as a (shorter)
  // batch; it may hold no reference (the tail of the stream after the last one).
  void flush();

  // The time (add()'s time_us) of the open batch's first I/O; std::nullopt
  // when no batch is open.
  std::optional<int64_t> open_since_us() const {
    return open_ ? std::optional<int64_t>(base_time_us_) : std::nullopt;
  }

  // Batches emitted so far; also the sequence number of the next batch.
  uint64_t batches() const { return sequence_; }

  // The threshold T now (the sampler's, or lower once the sample filled).
  uint64_t threshold() const { return threshold_; }

  // The working-set windows' state (WorkingSetWindows::save()), to restore
  // after a restart; call it after flush(), with no batch open (throws
  // std::logic_error otherwise: the open batch's shares would be lost).
  std::string save_working_set() const;

  // Continues the working-set windows `saved` (save_working_set() of an
  // earlier run of this volume) instead of a fresh sample; false, and the
  // fresh sample kept, when they are not a state of this sampler's P and a
  // threshold at most its T. Call before the first add().
  bool restore_working_set(std::string_view saved);

  // Pseudonymous id of the host's cluster (KeyedHasher::cluster_id), recorded in
  // every batch started from now on; empty (the default): no cluster.
  void set_cluster_id(std::string cluster_id) { cluster_id_ = std::move(cluster_id); }

  // Whether batches summarise their sampled references (reference_summary)
  // instead of carrying them: the agent runs every analysis of them itself, so
  // a volume whose references no other host shares (no cluster) keeps them
  // (default: carried). Call between batches.
  void set_summarise_references(bool summarise) { summarise_ = summarise; }

  // Also runs this volume's sampled references through its host's shared
  // tier: its miniature simulations (`tier`) and its working-set windows
  // (`windows`), every volume of the host one part of each (both must outlive
  // the batcher), each block keyed H(L) XOR (`salt` << 24) so that the
  // volumes' blocks stay apart while each keeps its sampling bits; each batch
  // then carries its references' counts and shares there
  // (host_tier_simulations, host_tier_working_set). The windows' T follows
  // this batcher's as it falls. Call before the first add().
  void set_host_tier(cache::MiniatureSimulations* tier, WorkingSetWindows* windows, uint64_t salt);

 private:
  void start_batch(int64_t base_time_us);
  // Adds the miniature simulations' counts over the open batch's references to it.
  void add_miniature_simulations();
  // Sends the open batch. references_after: how many of the LRU anchor's last
  // references belong to the next batch (1 when T falls: the reference that
  // made it fall; else 0).
  void emit(size_t references_after = 0);
  // Throws the std::invalid_argument of add() for a time before the epoch or
  // before the previous I/O's.
  [[noreturn]] void reject_time(int64_t time_us) const;
  // A block not known to be outside the sample: hashes it, adds it to the
  // sketch, and keeps a reference when it is sampled (1, else 0; marks it
  // unsampled otherwise). Emits full batches.
  size_t consider(uint64_t block, trace::Direction direction, uint32_t length_blocks, int64_t time_us);
  // Records a sampled block's priority; false when that made T fall below it.
  bool admit(uint64_t block_hash, int64_t time_us);

  std::string host_id_;
  std::string volume_id_;
  std::string cluster_id_;
  const ShardsSampler& sampler_;
  Sink sink_;
  DistinctBlockSketch sketch_;
  tierwise::v1::ReferenceBatch batch_;
  bool open_ = false;
  bool summarise_ = false;
  size_t kept_ = 0;             // sampled references of the open batch
  ReferenceSummary summary_;    // of the open batch, when summarise_
  uint64_t considered_ = 0;
  int64_t base_time_us_ = 0;
  int64_t last_time_us_ = 0;  // the previous I/O's time (0 before the first: times are >= 0)
  uint64_t sequence_ = 0;
  std::vector<uint32_t> sketch_updates_;  // reused per batch
  size_t max_sampled_blocks_;
  uint64_t threshold_;
  // The position where `priority` is or would go in priorities_ (bucket index,
  // then a binary search within the bucket).
  std::vector<uint32_t>::iterator find_priority(uint32_t priority);
  // Rebuilds bucket_start_ for priorities_ and threshold_ (after T fell).
  void index_priorities();

  cache::MiniatureSimulations simulations_;
  WorkingSetWindows windows_;
  cache::MiniatureSimulations* host_tier_ = nullptr;  // the host's shared tier; null: none
  WorkingSetWindows* host_windows_ = nullptr;         // its windows; null with host_tier_
  size_t host_part_ = 0;
  size_t host_windows_part_ = 0;
  uint64_t host_salt_ = 0;
  std::vector<cache::MiniatureSimulations::SizeCounts> simulation_counts_;  // reused per batch
  UnsampledBlocks unsampled_;  // blocks whose H(L) mod P was >= T once
  // Exact LRU of LruAnchor::kDefaultBlocks blocks over every reference; null when off.
  std::unique_ptr<LruAnchor> anchor_;
  std::vector<uint32_t> priorities_;  // sorted distinct H(L) mod P of the sampled blocks
  // Index of priorities_ by bucket (priority >> bucket_shift_): bucket b holds
  // priorities_[bucket_start_[b], bucket_start_[b + 1]). Sampled references
  // look their block up on every access; with the sample full (32,768 blocks,
  // the default bound then) a search of the whole array took 15 steps, a
  // bucket's 3 or 4.
  static constexpr unsigned kBucketBits = 12;
  unsigned bucket_shift_ = 0;
  std::vector<uint32_t> bucket_start_;
};

}  // namespace tierwise::sampling
