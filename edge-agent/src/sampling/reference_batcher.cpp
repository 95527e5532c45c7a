#include "sampling/reference_batcher.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "sampling/batch_id.hpp"

namespace tierwise::sampling {
namespace {

constexpr uint64_t kNanosPerMicro = 1000;

tierwise::v1::Direction to_proto(trace::Direction direction) {
  return direction == trace::Direction::kRead ? tierwise::v1::DIRECTION_READ
                                              : tierwise::v1::DIRECTION_WRITE;
}

void to_proto(const cache::MiniatureSimulations::SizeCounts& c, tierwise::v1::MiniatureSimulation* out) {
  out->set_cache_bytes(c.cache_bytes);
  out->set_sampling_threshold(c.threshold);
  out->set_references(c.references);
  out->set_read_references(c.read_references);
  out->mutable_misses()->Add(c.misses.begin(), c.misses.end());
  out->mutable_read_misses()->Add(c.read_misses.begin(), c.read_misses.end());
}

tierwise::v1::EvictionPolicy to_proto(cache::eviction::PolicyKind kind) {
  switch (kind) {
    case cache::eviction::PolicyKind::kLru: return tierwise::v1::EVICTION_POLICY_LRU;
    case cache::eviction::PolicyKind::kS3Fifo: return tierwise::v1::EVICTION_POLICY_S3FIFO;
    case cache::eviction::PolicyKind::kArc: return tierwise::v1::EVICTION_POLICY_ARC;
    case cache::eviction::PolicyKind::kTwoQ: return tierwise::v1::EVICTION_POLICY_TWO_Q;
    case cache::eviction::PolicyKind::kSieve: return tierwise::v1::EVICTION_POLICY_SIEVE;
  }
  return tierwise::v1::EVICTION_POLICY_UNSPECIFIED;
}

}  // namespace

ReferenceBatcher::ReferenceBatcher(std::string host_id, std::string volume_id,
                                   const ShardsSampler& sampler, Sink sink, unsigned sketch_precision,
                                   size_t max_sampled_blocks, bool lru_anchor)
    : host_id_(std::move(host_id)),
      volume_id_(std::move(volume_id)),
      sampler_(sampler),
      sink_(std::move(sink)),
      sketch_(sketch_precision),
      max_sampled_blocks_(max_sampled_blocks),
      threshold_(sampler.threshold()),
      simulations_(sampler.modulus(), sampler.threshold()),
      windows_(sampler.modulus(), sampler.threshold(), kServiceMaxSamples),
      anchor_(lru_anchor ? std::make_unique<LruAnchor>() : nullptr) {
  if (max_sampled_blocks_ != 0 && max_sampled_blocks_ < 4) {
    throw std::invalid_argument("max_sampled_blocks must be 0 (fixed rate) or at least 4, got " +
                                std::to_string(max_sampled_blocks_));
  }
  if (max_sampled_blocks_ != 0) index_priorities();
}

void ReferenceBatcher::index_priorities() {
  // Buckets of 2^shift priorities, at most 2^kBucketBits of them below T.
  const unsigned width = std::bit_width(threshold_ - 1);
  bucket_shift_ = width > kBucketBits ? width - kBucketBits : 0;
  bucket_start_.assign((size_t{1} << kBucketBits) + 1, 0);
  for (const uint32_t priority : priorities_) ++bucket_start_[(priority >> bucket_shift_) + 1];
  for (size_t b = 1; b < bucket_start_.size(); ++b) bucket_start_[b] += bucket_start_[b - 1];
}

std::vector<uint32_t>::iterator ReferenceBatcher::find_priority(uint32_t priority) {
  const size_t bucket = priority >> bucket_shift_;
  return std::lower_bound(priorities_.begin() + bucket_start_[bucket],
                          priorities_.begin() + bucket_start_[bucket + 1], priority);
}

void ReferenceBatcher::start_batch(int64_t base_time_us) {
  batch_.Clear();
  batch_.set_batch_id(new_batch_id());
  batch_.set_host_id(host_id_);
  batch_.set_volume_id(volume_id_);
  if (!cluster_id_.empty()) batch_.set_cluster_id(cluster_id_);
  batch_.set_sampling_modulus(sampler_.modulus());
  batch_.set_sampling_threshold(threshold_);
  batch_.set_base_time_unix_nano(static_cast<uint64_t>(base_time_us) * kNanosPerMicro);
  batch_.set_sequence(sequence_);
  simulations_.follow_agent_threshold(threshold_);
  if (host_tier_ != nullptr) host_tier_->follow_agent_threshold(threshold_);
  base_time_us_ = base_time_us;
  considered_ = 0;
  kept_ = 0;
  open_ = true;
}

void ReferenceBatcher::reject_time(int64_t time_us) const {
  if (time_us < 0) {
    throw std::invalid_argument("I/O time " + std::to_string(time_us) + " us is before the epoch");
  }
  throw std::invalid_argument("I/O time " + std::to_string(time_us) + " us goes back before " +
                              std::to_string(last_time_us_) + " us");
}

size_t ReferenceBatcher::consider(uint64_t block, trace::Direction direction, uint32_t length_blocks,
                                  int64_t time_us) {
  const uint64_t hash = sampler_.block_hash(block);
  sketch_.add(hash);
  if (hash % sampler_.modulus() >= threshold_) {
    unsampled_.mark(block);
    return 0;
  }
  if (!admit(hash, time_us)) return 0;
  const int64_t time_ns = time_us * static_cast<int64_t>(kNanosPerMicro);
  if (summarise_) {
    summary_.add(direction, length_blocks, time_ns);
  } else {
    tierwise::v1::BlockReference* out = batch_.add_references();
    out->set_block_hash(hash);
    out->set_direction(to_proto(direction));
    out->set_length_blocks(length_blocks);
    out->set_time_offset_us(static_cast<uint64_t>(time_us - base_time_us_));
  }
  simulations_.reference(hash, direction == trace::Direction::kWrite);
  windows_.reference(hash, direction == trace::Direction::kWrite, time_ns);
  if (host_tier_ != nullptr) {
    host_tier_->reference(hash ^ host_salt_, direction == trace::Direction::kWrite, host_part_);
    host_windows_->reference(hash ^ host_salt_, direction == trace::Direction::kWrite, time_ns, host_windows_part_);
  }
  if (++kept_ == kMaxReferencesPerBatch) emit();
  return 1;
}

bool ReferenceBatcher::admit(uint64_t block_hash, int64_t time_us) {
  if (max_sampled_blocks_ == 0) return true;
  const auto priority = static_cast<uint32_t>(block_hash % sampler_.modulus());
  auto at = find_priority(priority);
  if (at != priorities_.end() && *at == priority) return true;
  priorities_.insert(at, priority);
  for (size_t b = (priority >> bucket_shift_) + 1; b < bucket_start_.size(); ++b) ++bucket_start_[b];
  if (priorities_.size() <= max_sampled_blocks_) return true;
  // Drop the largest quarter; T falls to the smallest priority dropped. The
  // open batch (add() keeps one open here) carries the old T, so it leaves
  // first, without this reference, which the next batch counts.
  const size_t keep = max_sampled_blocks_ - max_sampled_blocks_ / 4;
  const uint64_t lowered = priorities_[keep];
  priorities_.resize(keep);
  --considered_;
  emit(/*references_after=*/1);
  threshold_ = lowered;
  windows_.lower_threshold(lowered);
  if (host_windows_ != nullptr) host_windows_->lower_threshold(lowered, host_windows_part_);
  index_priorities();
  start_batch(time_us);
  ++considered_;
  return priority < lowered;
}

void ReferenceBatcher::flush() {
  if (open_) emit();
}

std::string ReferenceBatcher::save_working_set() const {
  if (open_) throw std::logic_error("save_working_set() with a batch open: flush() first");
  return windows_.save();
}

bool ReferenceBatcher::restore_working_set(std::string_view saved) {
  std::optional<WorkingSetWindows> restored =
      WorkingSetWindows::restore(saved, sampler_.modulus(), threshold_, kServiceMaxSamples);
  if (!restored) return false;
  windows_ = std::move(*restored);
  return true;
}

void ReferenceBatcher::set_host_tier(cache::MiniatureSimulations* tier, WorkingSetWindows* windows, uint64_t salt) {
  host_tier_ = tier;
  host_part_ = tier->add_part();
  host_windows_ = windows;
  host_windows_part_ = windows->add_part();
  host_salt_ = salt << DistinctBlockSketch::kSamplingBits;  // keeps the bits that decide sampling
}

void ReferenceBatcher::add_miniature_simulations() {
  for (const cache::eviction::PolicyKind kind : simulations_.policies()) batch_.add_miniature_policies(to_proto(kind));
  simulation_counts_.clear();
  simulations_.take_counts(&simulation_counts_);
  for (const cache::MiniatureSimulations::SizeCounts& c : simulation_counts_) {
    to_proto(c, batch_.add_miniature_simulations());
  }
  if (host_tier_ == nullptr) return;
  simulation_counts_.clear();
  host_tier_->take_counts(&simulation_counts_, host_part_);
  for (const cache::MiniatureSimulations::SizeCounts& c : simulation_counts_) {
    to_proto(c, batch_.add_host_tier_simulations());
  }
}

void ReferenceBatcher::emit(size_t references_after) {
  add_miniature_simulations();
  windows_.take_shares(batch_.mutable_working_set());
  if (host_windows_ != nullptr) host_windows_->take_shares(batch_.mutable_host_tier_working_set(), host_windows_part_);
  if (summary_.references() > 0) summary_.take(batch_.mutable_reference_summary());
  batch_.set_considered_references(considered_);
  if (anchor_) {
    batch_.set_lru_anchor_hits(anchor_->take_hits(references_after));
    batch_.set_lru_anchor_blocks(anchor_->blocks());
  }
  batch_.set_distinct_blocks_hll_precision(sketch_.precision());
  sketch_updates_.clear();
  sketch_.take_updates(sketch_updates_);
  batch_.mutable_distinct_blocks_hll_updates()->Add(sketch_updates_.begin(), sketch_updates_.end());
  sink_(batch_);
  ++sequence_;
  batch_.Clear();
  open_ = false;
}

}  // namespace tierwise::sampling
