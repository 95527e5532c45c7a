// A batch's sampled references summarised (tierwise.v1.ReferenceSummary,
// proto/tierwise/v1/reference_batch.proto): how many, the times of the first
// and last, and their I/O mix as counts per (direction, I/O length). What the
// service still reads off the references once the agent runs their analyses
// itself, so that a volume whose references no other host shares keeps them
// on the host (docs/fleet-scale.md "What is left", item 1). Not thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "tierwise/v1/reference_batch.pb.h"
#include "trace/record.hpp"

namespace tierwise::sampling {

class ReferenceSummary {
 public:
  // One sampled reference, in time order: the direction and length (4 KiB
  // blocks, >= 1) of the I/O that made it, and its time in nanoseconds (Unix
  // epoch or trace clock).
  void add(trace::Direction direction, uint32_t length_blocks, int64_t time_unix_nano) {
    if (references_ == 0) first_unix_nano_ = time_unix_nano;
    last_unix_nano_ = time_unix_nano;
    ++references_;
    // Most of a volume's references come from a few I/O lengths, and a run of
    // them from one: the previous entry first, then a linear search.
    const bool write = direction == trace::Direction::kWrite;
    if (last_ < counts_.size() && counts_[last_].write == write && counts_[last_].length_blocks == length_blocks) {
      ++counts_[last_].references;
      return;
    }
    count(write, length_blocks);
  }

  // The references added since the last take.
  uint64_t references() const { return references_; }

  // Moves the summary of the references added since the last take into `out`
  // (its fields are overwritten; io_lengths sorted as the message requires)
  // and starts afresh.
  void take(tierwise::v1::ReferenceSummary* out);

 private:
  struct Count {
    bool write;
    uint32_t length_blocks;
    uint64_t references;
  };
  void count(bool write, uint32_t length_blocks);

  uint64_t references_ = 0;
  int64_t first_unix_nano_ = 0;
  int64_t last_unix_nano_ = 0;
  std::vector<Count> counts_;
  size_t last_ = 0;  // the entry the previous reference counted in
};

}  // namespace tierwise::sampling
