// Turns one volume's I/Os into tierwise.v1.ReferenceBatch messages
// (proto/tierwise/v1/reference_batch.proto), the body of POST /v1/refs: the
// SHARDS-sampled block references, and for the whole stream the count of
// considered references N and the distinct-block sketch (DistinctBlockSketch).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sampling/distinct_block_sketch.hpp"
#include "sampling/shards_sampler.hpp"
#include "tierwise/v1/reference_batch.pb.h"
#include "trace/record.hpp"

namespace tierwise::sampling {

class ReferenceBatcher {
 public:
  // Most references per batch (keeps a batch well below ingest's size limit).
  static constexpr size_t kMaxReferencesPerBatch = 10'000;

  // Receives each complete batch.
  using Sink = std::function<void(const tierwise::v1::ReferenceBatch&)>;

  // host_id, volume_id: pseudonymous ids (KeyedHasher::host_id/volume_id).
  // Every batch records the sampler's P and T; `sampler` must outlive the
  // batcher. sketch_precision: p of the distinct-block sketch (throws
  // std::invalid_argument outside DistinctBlockSketch's range).
  ReferenceBatcher(std::string host_id, std::string volume_id, const ShardsSampler& sampler, Sink sink,
                   unsigned sketch_precision = DistinctBlockSketch::kDefaultPrecision);

  // Considers every 4 KiB block `io` touches (trace::blocks_touched), one
  // reference each: counts it in considered_references, adds H(L) to the
  // distinct-block sketch, and keeps a reference (direction, I/O length in
  // blocks, time `time_us`) when the block is sampled. Emits a batch each time
  // kMaxReferencesPerBatch references are pending, so N is split exactly at the
  // batch's last reference. time_us: microseconds (Unix epoch or trace clock),
  // >= 0 and not before the previous I/O's; throws std::invalid_argument
  // otherwise. Returns the number of references kept.
  size_t add(const trace::IoRecord& io, int64_t time_us);

  // Emits the pending references and considered count, if any, as a (shorter)
  // batch; it may hold no reference (the tail of the stream after the last one).
  void flush();

  // Batches emitted so far; also the sequence number of the next batch.
  uint64_t batches() const { return sequence_; }

 private:
  void start_batch(int64_t base_time_us);
  void emit();

  std::string host_id_;
  std::string volume_id_;
  const ShardsSampler& sampler_;
  Sink sink_;
  DistinctBlockSketch sketch_;
  tierwise::v1::ReferenceBatch batch_;
  bool open_ = false;
  uint64_t considered_ = 0;
  int64_t base_time_us_ = 0;
  std::optional<int64_t> last_time_us_;
  uint64_t sequence_ = 0;
  std::vector<uint32_t> sketch_updates_;  // reused per batch
};

}  // namespace tierwise::sampling
