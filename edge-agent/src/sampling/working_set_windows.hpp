// The service's working-set windows (docs/analytics.md "Windows"), run on the
// agent over a volume's sampled references: what each batch adds to them
// leaves in its ReferenceBatch.working_set (WorkingSetShares,
// proto/tierwise/v1/reference_batch.proto), and the service adds the shares
// up instead of simulating the references (docs/fleet-scale.md "What is
// left", item 1).
//
// The same computation as the service's WindowedEstimators over the batches'
// references (stream-jobs; the two are checked equal on the real traces by
// WorkingSetSharesTest there):
//   - the sample: fixed-size SHARDS (Waldspurger et al., FAST 2015, section 4)
//     of at most max_samples blocks; T starts at the batcher's and falls to the
//     largest priority H(L) mod P held when the sample outgrows max_samples,
//     or to the batcher's when that falls (lower_threshold), evicting the
//     blocks at or above it;
//   - its LRU stack (ReuseDistanceStack), which marks each block with the
//     epochs of its last read and write, an epoch being the count of panes
//     started so far;
//   - 'all', one pane that never ends, and three sliding windows of 1 h, 24 h
//     and 7 d of 4 panes each: a window of W seconds starts a pane when a
//     reference's time passes a multiple of W / 4 (Unix time) and drops the
//     panes that started more than W before it.
// Each reference the batch carries rolls the windows, sampled by this sample or
// not (the service rolls on every reference it receives). Each pane is kept as
// its share of the open batch (WindowShare): the newest pane of each window
// counts a sampled reference, weighted 1 / R at the sample's T then; the pane
// its previous access lies in counts the re-reference at its scaled stack
// distance, in the service's histogram buckets (distance_bucket); the panes
// its previous read (write) lies in count a repeat; a block the sample evicts
// is a repeat of the panes of its last access, read and write. Not
// thread-safe.
//
// Parts (a host's shared tier: parts = its volumes, as cache::MiniatureSimulations
// has them). Several streams merged in time order into one sample and one set
// of windows, each reference's shares, and the evictions a stream's lowered T
// causes, kept for its part, so that each part takes its shares when it likes
// (a volume, as it emits its batch) and the parts' shares add up to the
// tier's. The windows roll on the latest time any part referenced, so a part
// whose clock lags a little counts in the panes of the tier's time.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <queue>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sampling/reuse_distance_stack.hpp"
#include "tierwise/v1/reference_batch.pb.h"

namespace tierwise::sampling {

class WorkingSetWindows {
 public:
  // The sliding windows' lengths, seconds (the service's WindowedEstimators.SLIDING).
  static constexpr std::array<uint32_t, 3> kSlidingSeconds{3600, 86'400, 7 * 86'400};
  // Panes per sliding window (WindowedEstimators.PANES).
  static constexpr int kPanes = 4;

  // modulus, threshold: the batcher's P and T (0 < T <= P); max_samples: s_max
  // (>= 1; the service's ShardsFixedSize.DEFAULT_MAX_SAMPLES); parts: how many
  // to start with (add_part adds more). Throws std::invalid_argument otherwise.
  WorkingSetWindows(uint64_t modulus, uint64_t threshold, uint32_t max_samples, size_t parts = 1);

  // Adds a part (a volume joining its host's tier); returns its index.
  size_t add_part();

  // One reference the batch carries (its block is in the batcher's sample), in
  // time order, of part `part` (throws std::out_of_range unless < parts):
  // time_unix_nano, the Unix epoch (or trace clock) in nanoseconds; a time
  // before the latest one seen counts at the latest.
  void reference(uint64_t block_hash, bool write, int64_t time_unix_nano, size_t part = 0);

  // The batcher's T fell to `lowered`: the sample follows (no effect unless
  // below its own T), evicting the blocks at or above it, their repeats
  // counted for part `part`. Call it after the batch with the old T has taken
  // its shares.
  void lower_threshold(uint64_t lowered, size_t part = 0);

  // The sample's T now.
  uint64_t threshold() const { return threshold_; }

  // The sample's id (WorkingSetShares.sample_id): random, drawn at construction.
  uint64_t sample_id() const { return sample_id_; }

  // The bucket of a scaled stack distance x >= 0 (4 KiB blocks) in the
  // service's log-linear distance histogram (stream-jobs DistanceHistogram,
  // WindowShare.hit_buckets): floor(x) below 64, then 64 buckets per power of
  // two, the exponent clipped at 62.
  static uint32_t distance_bucket(double x);

  // Moves part `part`'s shares gathered since its previous take into `out`
  // (its fields are overwritten), in the order WorkingSetShares documents;
  // last_reference_unix_nano is the part's last reference's time on the
  // windows' clock.
  void take_shares(tierwise::v1::WorkingSetShares* out, size_t part = 0);

  // The windows as bytes (the sample's parameters and id, the epoch, every
  // window's panes, the stack's blocks least recently referenced first with
  // their marks), for restore() after the agent restarts, so that the
  // service's windows go on (docs/analytics.md "Windows on the agent"). Call
  // it between batches: shares not yet taken are not kept. Layout: "TWWS",
  // version 1, little-endian fixed-width fields (working_set_windows.cpp), then
  // their CRC-32C.
  std::string save() const;

  // The windows save() wrote, with `parts` parts, or std::nullopt when `bytes`
  // are not a whole saved state of a sample with P = modulus and s_max =
  // max_samples whose T is at most `threshold` (the caller then starts a
  // fresh sample).
  static std::optional<WorkingSetWindows> restore(std::string_view bytes, uint64_t modulus, uint64_t threshold,
                                                  uint32_t max_samples, size_t parts = 1);

 private:
  struct Pane {
    int64_t start_unix_nano;
    int32_t epoch;
    int64_t first_unix_nano;
  };
  // What the open batch tells one pane (WindowShare's counts).
  struct Share {
    int64_t first_unix_nano = 0;
    uint64_t references = 0;
    uint64_t read_references = 0;
    double weight = 0;
    double read_weight = 0;
    double first_weight = 0;
    std::map<uint32_t, double> hits;  // bucket -> weight
    std::map<uint32_t, double> read_hits;
    uint64_t block_repeats = 0;
    uint64_t read_repeats = 0;
    uint64_t write_repeats = 0;
  };
  // (window seconds, pane start): WorkingSetShares' order.
  using ShareKey = std::pair<uint32_t, int64_t>;
  // One part's shares since its last take.
  struct PartShares {
    std::map<ShareKey, Share> shares;
    int64_t last_unix_nano = 0;  // its last reference (0: none yet)
  };

  // 'all' is window 0: one pane at epoch 0, which every marked epoch is at or after.
  static constexpr size_t kWindows = 1 + kSlidingSeconds.size();
  static uint32_t window_seconds(size_t w) { return w == 0 ? 0 : kSlidingSeconds[w - 1]; }

  void roll(size_t w, int64_t now);
  // The newest pane of window w started at or before `epoch` (kNoEpoch: none),
  // or null when it is older than every live pane.
  const Pane* started_by(size_t w, int32_t epoch) const;
  Share& share(PartShares& part, size_t w, const Pane& pane);
  void repeat(PartShares& part, size_t w, const ReuseDistanceStack::Marks& marks);
  PartShares& part_shares(size_t part);  // throws std::out_of_range unless part < parts
  uint64_t priority(uint64_t block_hash) const { return block_hash % modulus_; }

  uint64_t modulus_;
  uint64_t threshold_;
  double scale_;  // 1 / R = 1 / (T / P), as the service computes it (SamplingRate)
  uint32_t max_samples_;
  uint64_t sample_id_;
  ReuseDistanceStack stack_;
  // The sample's blocks, the largest priority first: (priority, H(L)).
  std::priority_queue<std::pair<uint64_t, uint64_t>> by_priority_;
  int32_t epoch_ = 0;
  int64_t latest_unix_nano_ = 0;  // the windows' clock: the latest reference time seen
  std::array<std::deque<Pane>, kWindows> panes_;
  std::vector<PartShares> parts_;
};

}  // namespace tierwise::sampling
