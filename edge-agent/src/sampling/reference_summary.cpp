#include "sampling/reference_summary.hpp"

#include <algorithm>

namespace tierwise::sampling {

void ReferenceSummary::count(bool write, uint32_t length_blocks) {
  for (size_t i = 0; i < counts_.size(); ++i) {
    if (counts_[i].write == write && counts_[i].length_blocks == length_blocks) {
      ++counts_[i].references;
      last_ = i;
      return;
    }
  }
  counts_.push_back(Count{write, length_blocks, 1});
  last_ = counts_.size() - 1;
}

void ReferenceSummary::take(tierwise::v1::ReferenceSummary* out) {
  out->Clear();
  out->set_references(references_);
  out->set_first_reference_unix_nano(static_cast<uint64_t>(first_unix_nano_));
  out->set_last_reference_unix_nano(static_cast<uint64_t>(last_unix_nano_));
  std::sort(counts_.begin(), counts_.end(), [](const Count& a, const Count& b) {
    return a.write != b.write ? !a.write : a.length_blocks < b.length_blocks;
  });
  for (const Count& c : counts_) {
    tierwise::v1::IoLengthCount* o = out->add_io_lengths();
    o->set_direction(c.write ? tierwise::v1::DIRECTION_WRITE : tierwise::v1::DIRECTION_READ);
    o->set_length_blocks(c.length_blocks);
    o->set_references(c.references);
  }
  references_ = 0;
  counts_.clear();
  last_ = 0;
}

}  // namespace tierwise::sampling
