// Sequential cut-off: I/Os that continue a large sequential stream bypass
// population of the tier, as bcache's sequential_cutoff does.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace tierwise::cache {

/*
 * Detects sequential streams among a volume's I/Os, after bcache
 * (drivers/md/bcache/request.c, check_should_bypass; Documentation
 * admin-guide/bcache.rst: "sequential_cutoff ... defaults to 4.0M"): it
 * remembers where the last kStreams streams ended; an I/O starting exactly
 * there extends that stream, any other starts a new one (replacing the least
 * recently extended). Once a stream's bytes, this I/O included, reach the
 * cut-off, the I/O is sequential: its missing blocks are not inserted into the
 * tier (hits are still served from it, and writes still update blocks it
 * holds). Backups, scans and large copies thus do not flush the working set.
 *
 * cutoff_bytes 0 disables the cut-off (every miss populates the tier, the
 * model of the miss ratio curve); that is the engine's and the replay's
 * default, because on the real traces it only lost hits (docs/eviction.md).
 * bcache's 4 MiB is the value to enable it with. O(kStreams) per I/O, no allocation.
 */
class SequentialCutoff {
 public:
  static constexpr size_t kStreams = 16;

  explicit SequentialCutoff(uint64_t cutoff_bytes) : cutoff_(cutoff_bytes) {}

  // Records the I/O [offset, offset + length) bytes; returns whether it is part
  // of a sequential stream of at least the cut-off (so it should not populate).
  bool bypass(uint64_t offset, uint32_t length);

  uint64_t cutoff_bytes() const { return cutoff_; }

 private:
  struct Stream {
    uint64_t end = 0;        // byte offset just past the stream's last I/O
    uint64_t bytes = 0;      // bytes of the stream so far
    uint64_t last_use = 0;   // tick of the last I/O that extended it
  };
  uint64_t cutoff_;
  uint64_t tick_ = 0;
  std::array<Stream, kStreams> streams_{};
};

}  // namespace tierwise::cache
