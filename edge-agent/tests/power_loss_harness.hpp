// The power-loss harness: an fio-like workload over the cache engine on two
// PowerLossDevices (tier and datastore), cut at a chosen step, recovered and
// checked. docs/write-back.md "Power-loss testing".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tierwise::test::plsim {

// The workload of one phase (a run from a fresh or recovered volume to its cut).
struct Profile {
  std::string name = "write-back";
  bool write_back = true;         // false: CacheEngine::create, write-through (the datastore path)
  uint32_t ops = 150;             // front-end commands per phase: writes, reads, FLUSHes, switches
  uint32_t queue_depth = 8;       // commands in flight at most
  uint64_t volume_blocks = 512;   // 4 KiB blocks (2 MiB)
  uint32_t hot_blocks = 16;       // half of the writes overwrite these
  uint32_t percent_reads = 25;    // of the commands; each read is checked exactly
  uint32_t percent_flushes = 8;
  uint32_t percent_switches = 0;  // write-back: live switches to write-through and back
  uint32_t percent_ticks = 10;    // of the steps: CacheEngine::tick (destager, watermark)
  // Planted bugs (power_loss_planted.hpp): the flushes of the tier (group
  // commit, watermark) or of the datastore are acknowledged and dropped.
  bool lying_tier_flush = false;
  bool lying_datastore_flush = false;
};

// One reproducible case: the workload's seed, the step of each phase after
// which power is cut (one phase per entry; a step past the phase's end cuts
// once it is idle), and optionally a second cut during the first recovery,
// after that many device completions (0: none).
struct Case {
  uint64_t seed = 1;
  std::vector<uint64_t> cuts;
  uint64_t recovery_cut = 0;
  // One line that names the case and its profile:
  // "seed=S cut_after_op=N[,N2] profile=NAME ops=O qd=Q hot=H[ recovery_cut=R]".
  std::string describe(const Profile& p) const;
};

// The profiles by name: "write-back", "write-back-switching" (live switches to
// write-through and back), "write-through"; a suffix "-lying-tier" or
// "-lying-datastore" plants the lying flush. Unknown names: "write-back".
Profile profile_named(const std::string& name);
// Reads a line Case::describe printed back; false when a field is malformed.
bool parse_case(const std::string& line, Profile* profile, Case* c);

struct Stats {
  uint64_t cuts = 0;               // power cuts (including cuts during recovery)
  uint64_t steps = 0;              // harness steps run
  uint64_t acked_writes = 0;
  uint64_t journaled_writes = 0;   // of those, durable at the acknowledgement (journaled)
  uint64_t checked_reads = 0;      // reads during the run, checked exactly
  uint64_t durable_sectors = 0;    // sectors checked after cuts that had a durable write
  uint64_t unflushed_writes = 0;   // device writes a cut could keep or drop
  uint64_t kept_writes = 0;        // of those, kept by the cut
  uint64_t torn_writes = 0;        // of those, kept torn
  uint64_t records_applied = 0;    // journal recovery
  uint64_t torn_records_ignored = 0;
  void add(const Stats& o);
};

struct Result {
  std::vector<std::string> failures;  // empty: every check held
  Stats stats;
  // Recording (a case without cuts): the steps of the phase, and the steps
  // during which a flush completed on either device.
  uint64_t phase_steps = 0;
  std::vector<uint64_t> flush_steps;
  uint64_t digest = 0;  // of every step's action and every acknowledgement: determinism
};

// Runs a case. With no cuts: one phase to its end, recording its flush steps.
Result run_case(const Profile& profile, const Case& c);

// Cut points of a recorded phase: just before and just after each flush completion.
std::vector<uint64_t> flush_boundaries(const Result& recorded);

}  // namespace tierwise::test::plsim
