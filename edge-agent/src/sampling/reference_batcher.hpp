// Packs the sampled references of one volume into tierwise.v1.ReferenceBatch
// messages (proto/tierwise/v1/reference_batch.proto), the body of POST /v1/refs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "sampling/block_reference.hpp"
#include "sampling/shards_sampler.hpp"
#include "tierwise/v1/reference_batch.pb.h"

namespace tierwise::sampling {

class ReferenceBatcher {
 public:
  // Most references per batch (keeps a batch well below ingest's size limit).
  static constexpr size_t kMaxReferencesPerBatch = 10'000;

  // Receives each complete batch.
  using Sink = std::function<void(const tierwise::v1::ReferenceBatch&)>;

  // host_id, volume_id: pseudonymous ids (KeyedHasher::host_id/volume_id).
  // Every batch records the sampler's P and T.
  ReferenceBatcher(std::string host_id, std::string volume_id, const ShardsSampler& sampler,
                   Sink sink);

  // Adds one reference of this volume. References must come in time order
  // with time_us >= 0 (Unix epoch or trace clock, microseconds); throws
  // std::invalid_argument otherwise. Emits a batch when it reaches
  // kMaxReferencesPerBatch.
  void add(const BlockReference& reference);

  // Emits the pending references, if any, as a (shorter) batch.
  void flush();

  // Batches emitted so far; also the sequence number of the next batch.
  uint64_t batches() const { return sequence_; }

 private:
  void start_batch(int64_t base_time_us);

  std::string host_id_;
  std::string volume_id_;
  uint64_t modulus_;
  uint64_t threshold_;
  Sink sink_;
  tierwise::v1::ReferenceBatch batch_;
  int64_t base_time_us_ = 0;
  std::optional<int64_t> last_time_us_;
  uint64_t sequence_ = 0;
};

}  // namespace tierwise::sampling
