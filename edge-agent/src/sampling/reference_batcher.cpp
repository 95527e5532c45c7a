#include "sampling/reference_batcher.hpp"

#include <stdexcept>

#include "sampling/batch_id.hpp"

namespace tierwise::sampling {
namespace {

constexpr uint64_t kNanosPerMicro = 1000;

tierwise::v1::Direction to_proto(trace::Direction direction) {
  return direction == trace::Direction::kRead ? tierwise::v1::DIRECTION_READ
                                              : tierwise::v1::DIRECTION_WRITE;
}

}  // namespace

ReferenceBatcher::ReferenceBatcher(std::string host_id, std::string volume_id,
                                   const ShardsSampler& sampler, Sink sink)
    : host_id_(std::move(host_id)),
      volume_id_(std::move(volume_id)),
      modulus_(sampler.modulus()),
      threshold_(sampler.threshold()),
      sink_(std::move(sink)) {}

void ReferenceBatcher::start_batch(int64_t base_time_us) {
  batch_.Clear();
  batch_.set_batch_id(new_batch_id());
  batch_.set_host_id(host_id_);
  batch_.set_volume_id(volume_id_);
  batch_.set_sampling_modulus(modulus_);
  batch_.set_sampling_threshold(threshold_);
  batch_.set_base_time_unix_nano(static_cast<uint64_t>(base_time_us) * kNanosPerMicro);
  batch_.set_sequence(sequence_);
  base_time_us_ = base_time_us;
}

void ReferenceBatcher::add(const BlockReference& reference) {
  if (reference.time_us < 0) {
    throw std::invalid_argument("reference time " + std::to_string(reference.time_us) +
                                " us is before the epoch");
  }
  if (last_time_us_ && reference.time_us < *last_time_us_) {
    throw std::invalid_argument("reference time " + std::to_string(reference.time_us) +
                                " us goes back before " + std::to_string(*last_time_us_) + " us");
  }
  if (batch_.references_size() == 0) start_batch(reference.time_us);
  last_time_us_ = reference.time_us;
  tierwise::v1::BlockReference* out = batch_.add_references();
  out->set_block_hash(reference.block_hash);
  out->set_direction(to_proto(reference.direction));
  out->set_length_blocks(reference.length_blocks);
  out->set_time_offset_us(static_cast<uint64_t>(reference.time_us - base_time_us_));
  if (static_cast<size_t>(batch_.references_size()) == kMaxReferencesPerBatch) flush();
}

void ReferenceBatcher::flush() {
  if (batch_.references_size() == 0) return;
  sink_(batch_);
  ++sequence_;
  batch_.Clear();
}

}  // namespace tierwise::sampling
