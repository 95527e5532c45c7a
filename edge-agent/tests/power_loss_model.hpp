// The power-loss harness's model of a volume: per 512-byte sector, the newest
// acknowledged write (what a read must return now) and the newest write that
// is durable (what must survive a power cut), both as the write's sequence
// number k of the verifying pattern (wb_pattern.hpp; 0: never written).
//
// When an acknowledged write is durable (docs/write-back.md "Modes"):
//  - journaled in write-back (the outcome has no datastore share): at its
//    acknowledgement, the group commit flushed its records (FUA implied);
//  - any write that reached the datastore (write-through, or a write-back
//    write without slots): once a FLUSH submitted after its acknowledgement
//    completed, as on a disk with a volatile cache.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "wb_pattern.hpp"

namespace tierwise::test::plsim {

inline constexpr uint32_t kSectorsPerBlock = 8;

// A written sector range [first, end) in volume sectors, by write k.
struct Written {
  uint64_t k;
  uint64_t first;
  uint64_t end;
};

class VolumeModel {
 public:
  explicit VolumeModel(uint64_t blocks)
      : latest_(blocks * kSectorsPerBlock, 0), durable_(blocks * kSectorsPerBlock, 0) {}

  // Write `w` was acknowledged; `durable_now`: journaled in write-back.
  void acknowledged(const Written& w, bool durable_now) {
    for (uint64_t s = w.first; s < w.end; ++s) latest_[s] = w.k;
    if (durable_now) {
      raise(w);
    } else {
      awaiting_flush_.push_back(w);
    }
  }
  // A FLUSH is submitted: it will cover every write acknowledged so far.
  std::vector<Written> flush_submitted() {
    std::vector<Written> covered;
    covered.swap(awaiting_flush_);
    return covered;
  }
  // That FLUSH completed.
  void flush_completed(const std::vector<Written>& covered) {
    for (const Written& w : covered) raise(w);
  }
  // After a power cut: what a sector must hold at least (0: anything issued, or zeros).
  uint64_t durable(uint64_t sector) const { return durable_[sector]; }
  // Now: what a read of the sector must return exactly.
  uint64_t latest(uint64_t sector) const { return latest_[sector]; }
  // After recovery the volume holds `k` in `sector`, durably: it is the new base.
  void recovered(uint64_t sector, uint64_t k) {
    latest_[sector] = durable_[sector] = k;
  }
  // Power cut: acknowledgements still waiting for a FLUSH are not durable.
  void power_cut() { awaiting_flush_.clear(); }
  uint64_t sectors() const { return latest_.size(); }

 private:
  void raise(const Written& w) {
    for (uint64_t s = w.first; s < w.end; ++s) {
      if (durable_[s] < w.k) durable_[s] = w.k;
    }
  }

  std::vector<uint64_t> latest_, durable_;
  std::vector<Written> awaiting_flush_;
};

// Checks one sector read back: its pattern must name this block and sector,
// and a write k with floor <= k < next_k (zeros only when floor is 0). `exact`:
// k must equal floor (a read with no power cut in between). Returns the k found
// (0 for zeros), or -1 with `why` set.
inline int64_t check_sector(const std::byte* bytes, uint64_t sector, uint64_t floor,
                            uint64_t next_k, bool exact, std::string* why) {
  static const std::byte zeros[kPatternSector] = {};
  const uint64_t block = sector / kSectorsPerBlock;
  const auto in_block = static_cast<uint32_t>(sector % kSectorsPerBlock);
  const std::string where =
      "block " + std::to_string(block) + " sector " + std::to_string(in_block) + ": ";
  if (std::memcmp(bytes, zeros, kPatternSector) == 0) {
    if (floor == 0) return 0;
    *why = where + "zeros, but write k=" + std::to_string(floor) + " was acknowledged" +
           (exact ? "" : " and durable");
    return -1;
  }
  const auto tag = read_sector(bytes);
  if (!tag || tag->block != block || tag->sector != in_block || tag->k >= next_k) {
    *why = where + "no intact pattern of this sector (expected k" + (exact ? "=" : ">=") +
           std::to_string(floor) + ")";
    return -1;
  }
  if (tag->k < floor || (exact && tag->k != floor)) {
    *why = where + "holds write k=" + std::to_string(tag->k) + ", older than acknowledged" +
           (exact ? " " : " durable ") + "write k=" + std::to_string(floor);
    if (exact && tag->k > floor) *why = where + "holds write k=" + std::to_string(tag->k) +
                                        ", expected exactly k=" + std::to_string(floor);
    return -1;
  }
  return static_cast<int64_t>(tag->k);
}

}  // namespace tierwise::test::plsim
