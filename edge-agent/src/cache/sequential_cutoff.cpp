#include "cache/sequential_cutoff.hpp"

namespace tierwise::cache {

bool SequentialCutoff::bypass(uint64_t offset, uint32_t length) {
  if (cutoff_ == 0) return false;
  ++tick_;
  Stream* oldest = &streams_[0];
  Stream* stream = nullptr;
  for (Stream& s : streams_) {
    if (s.bytes > 0 && s.end == offset) {
      stream = &s;
      break;
    }
    if (s.last_use < oldest->last_use) oldest = &s;
  }
  if (stream == nullptr) {
    stream = oldest;
    stream->bytes = 0;
  }
  stream->bytes += length;
  stream->end = offset + length;
  stream->last_use = tick_;
  return stream->bytes >= cutoff_;
}

}  // namespace tierwise::cache
