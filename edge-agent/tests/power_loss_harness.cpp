// The power-loss harness (power_loss_harness.hpp). One Run drives one case on
// one thread: every step is one action (submit a command, complete one device
// request, or tick the engine), all drawn from the case's seed, so a case
// replays exactly.
#include "power_loss_harness.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <random>

#include "blockdev/aligned_buffer.hpp"
#include "blockdev/power_loss_device.hpp"
#include "cache/cache_engine.hpp"
#include "power_loss_model.hpp"
#include "power_loss_planted.hpp"
#include "wb_pattern.hpp"

namespace tierwise::test::plsim {
namespace {

using blockdev::AlignedBytes;
using blockdev::PowerLossDevice;
using cache::CacheEngine;
using cache::CacheMode;
using trace::Direction;

constexpr uint32_t kBlock = 4096;
constexpr uint32_t kSector = 512;
constexpr uint32_t kJournalEntries = 64;                // the least open_write_back takes
constexpr uint64_t kWriteBackSlots = 2 * kJournalEntries;  // ditto: eviction pressure
constexpr uint64_t kWriteThroughSlots = 64;
constexpr uint64_t kVolumeId = 19;
constexpr uint64_t kMaxSteps = 1'000'000;  // a phase that never settles is a failure
constexpr size_t kMaxMessages = 8;

uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t state = a ^ (b * 0xD6E8FEB86659FD93ULL);
  return splitmix64(state);
}

// The power cut of one device: a quarter drop every unflushed write, half keep
// about half of them (torn half the time), a quarter keep nearly all, mostly torn.
blockdev::PowerCut cut_for(uint64_t seed) {
  switch (seed % 4) {
    case 0:
      return {seed, 0.0, 0.0, false};
    case 3:
      return {seed, 0.9, 0.9, true};
    default:
      return {seed, 0.5, 0.5, true};
  }
}

struct RecoveryCut {};  // thrown out of a recovery's poll to cut power during it

class Run {
 public:
  Run(const Profile& p, const Case& c, Result* out)
      : p_(p), c_(c), out_(*out), rng_(c.seed), model_(p.volume_blocks), busy_(p.volume_blocks) {}

  void execute();

 private:
  enum class Kind : uint8_t { kRead, kWrite, kFlush, kSwitch };
  struct Op {
    Kind kind;
    uint64_t offset = 0;  // bytes
    uint32_t length = 0;  // bytes
  };
  struct Io {
    Run* run;
    Op op;
    uint64_t k = 0;
    AlignedBytes buf;
    std::vector<Written> covered;  // a FLUSH: the acknowledgements it makes durable
  };

  void fail(const std::string& what) {
    if (out_.failures.size() < kMaxMessages) out_.failures.push_back(where_ + what);
  }
  bool failed() const { return !out_.failures.empty(); }
  void note(uint64_t v) { out_.digest = mix(out_.digest, v); }
  // Flushes completed on either device, and FLUSH commands completed (a lying
  // device completes them without a device flush).
  uint64_t flushes() const {
    return tier_->flushes_completed() + ds_->flushes_completed() + flush_commands_;
  }

  bool create_devices();
  bool open_engine(uint64_t recovery_cut);
  void run_phase(size_t phase);
  bool step();  // false: the phase is over (idle)
  void complete_one();
  Op make_op();
  bool fits(const Op& op) const;
  void set_busy(const Op& op, int delta);
  void submit(const Op& op);
  void cut(size_t phase, uint64_t step);
  void verify();
  static void on_io(void* arg, const cache::IoOutcome& outcome);
  static void on_flush(void* arg, int status);
  void finish(Io* io);

  const Profile& p_;
  const Case& c_;
  Result& out_;
  std::mt19937_64 rng_;
  VolumeModel model_;
  std::vector<uint32_t> busy_;  // commands in flight per 4 KiB block
  std::unique_ptr<PowerLossDevice> tier_, ds_;
  std::unique_ptr<LyingFlushDevice> lying_tier_, lying_ds_;
  blockdev::BlockDevice* tier_io_ = nullptr;  // what the engine sees
  blockdev::BlockDevice* ds_io_ = nullptr;
  std::vector<std::unique_ptr<Io>> ios_;
  std::unique_ptr<CacheEngine> engine_;  // destroyed first: it uses the devices
  std::optional<Op> next_;
  uint32_t ops_left_ = 0;
  uint64_t next_k_ = 1;
  uint64_t flush_commands_ = 0;
  bool want_write_back_ = true;
  std::string where_;
};

bool Run::create_devices() {
  const uint64_t tier_bytes =
      p_.write_back ? cache::writeback::TierLayout::for_entries(kJournalEntries).slot_base +
                          kWriteBackSlots * kBlock
                    : kWriteThroughSlots * kBlock;
  if (PowerLossDevice::create({tier_bytes, false, mix(c_.seed, 11)}, &tier_) != 0 ||
      PowerLossDevice::create({p_.volume_blocks * kBlock, false, mix(c_.seed, 12)}, &ds_) != 0) {
    fail("cannot create the devices");
    return false;
  }
  tier_io_ = tier_.get();
  ds_io_ = ds_.get();
  if (p_.lying_tier_flush) {
    lying_tier_ = std::make_unique<LyingFlushDevice>(*tier_);
    tier_io_ = lying_tier_.get();
  }
  if (p_.lying_datastore_flush) {
    lying_ds_ = std::make_unique<LyingFlushDevice>(*ds_);
    ds_io_ = lying_ds_.get();
  }
  return true;
}

// Opens the engine on the devices as they are: a fresh volume, or a restart
// after a power cut (write-back: journal recovery). `recovery_cut` > 0 cuts
// power again after that many device completions of the recovery, which then
// starts over.
bool Run::open_engine(uint64_t recovery_cut) {
  engine_.reset();
  want_write_back_ = p_.write_back;
  if (!p_.write_back) {
    if (CacheEngine::create(*ds_io_, *tier_io_, kWriteThroughSlots * kBlock, &engine_) != 0) {
      fail("CacheEngine::create failed");
      return false;
    }
    return true;
  }
  uint64_t completions = 0;
  cache::WriteBackOptions o;
  o.volume_id = kVolumeId;
  o.journal_entries = kJournalEntries;
  o.destage_rate_bytes_per_s = 0;  // unlimited: no clock in the loop, the run replays exactly
  o.poll = [&] {
    if (recovery_cut != 0 && ++completions == recovery_cut) {
      const uint64_t seed = mix(c_.seed, 0xC0DE);
      blockdev::CutReport rt, rd;
      tier_->cut_power(cut_for(seed), &rt);
      ds_->cut_power(cut_for(mix(seed, 1)), &rd);
      ++out_.stats.cuts;
      throw RecoveryCut{};
    }
    complete_one();
  };
  cache::writeback::RecoveryReport report;
  std::string error;
  int rc = 0;
  try {
    rc = CacheEngine::open_write_back(*ds_io_, *tier_io_, kWriteBackSlots * kBlock, o, &engine_,
                                      &report, &error);
  } catch (const RecoveryCut&) {
    recovery_cut = 0;  // the restart's recovery runs to its end
    error.clear();
    rc = CacheEngine::open_write_back(*ds_io_, *tier_io_, kWriteBackSlots * kBlock, o, &engine_,
                                      &report, &error);
  }
  if (rc != 0) {
    fail("recovery refused the volume: rc=" + std::to_string(rc) + " (" + error + ")");
    return false;
  }
  out_.stats.records_applied += report.records_applied;
  out_.stats.torn_records_ignored += report.torn_ignored;
  return true;
}

void Run::complete_one() {
  const size_t t = tier_->in_flight();
  const size_t total = t + ds_->in_flight();
  if (total == 0) return;
  if (rng_() % total < t) {
    tier_->poll(1);
  } else {
    ds_->poll(1);
  }
}

Run::Op Run::make_op() {
  const uint32_t r = static_cast<uint32_t>(rng_() % 100);
  const uint64_t sectors = p_.volume_blocks * kSectorsPerBlock;
  auto range = [&](uint64_t block, uint64_t first_in_block, uint64_t count) {
    const uint64_t first = block * kSectorsPerBlock + first_in_block;
    count = std::min(count, sectors - first);
    return Op{Kind::kWrite, first * kSector, static_cast<uint32_t>(count * kSector)};
  };
  if (r < p_.percent_reads) {
    Op op = range(rng_() % p_.volume_blocks, rng_() % 8, 1 + rng_() % 16);
    op.kind = Kind::kRead;
    return op;
  }
  if (r < p_.percent_reads + p_.percent_flushes) return Op{Kind::kFlush};
  if (p_.write_back && r < p_.percent_reads + p_.percent_flushes + p_.percent_switches) {
    return Op{Kind::kSwitch};
  }
  const uint64_t block = rng_() % 2 == 0 ? rng_() % p_.hot_blocks : rng_() % p_.volume_blocks;
  switch (rng_() % 4) {
    case 0:
    case 1:  // part of one block
    {
      const uint64_t first = rng_() % 8;
      return range(block, first, 1 + rng_() % (8 - first));
    }
    case 2:  // the whole block
      return range(block, 0, 8);
    default:  // across blocks: up to 24 sectors from anywhere in the block
      return range(block, rng_() % 8, 2 + rng_() % 23);
  }
}

bool Run::fits(const Op& op) const {
  if (op.kind == Kind::kFlush || op.kind == Kind::kSwitch) return true;
  for (uint64_t b = op.offset / kBlock; b <= (op.offset + op.length - 1) / kBlock; ++b) {
    if (busy_[b] != 0) return false;  // the engine's rule 3: a front end's range lock
  }
  return true;
}

void Run::set_busy(const Op& op, int delta) {
  if (op.kind == Kind::kFlush || op.kind == Kind::kSwitch) return;
  for (uint64_t b = op.offset / kBlock; b <= (op.offset + op.length - 1) / kBlock; ++b) {
    busy_[b] += delta;
  }
}

void Run::submit(const Op& op) {
  --ops_left_;
  note(static_cast<uint64_t>(op.kind) << 56 ^ op.offset ^ uint64_t{op.length} << 32);
  if (op.kind == Kind::kSwitch) {
    want_write_back_ = !want_write_back_;
    const int rc =
        engine_->set_mode(want_write_back_ ? CacheMode::kWriteBack : CacheMode::kWriteThrough);
    if (rc != 0) fail("set_mode failed: rc=" + std::to_string(rc));
    return;
  }
  auto io = std::make_unique<Io>();
  Io* raw = io.get();
  raw->run = this;
  raw->op = op;
  int rc = 0;
  if (op.kind == Kind::kFlush) {
    raw->covered = model_.flush_submitted();
    ios_.push_back(std::move(io));
    rc = engine_->submit_flush(on_flush, raw);
  } else {
    raw->buf = blockdev::allocate_aligned(op.length, kBlock);
    if (op.kind == Kind::kWrite) {
      raw->k = next_k_++;
      for (uint32_t i = 0; i < op.length / kSector; ++i) {
        const uint64_t s = op.offset / kSector + i;
        fill_sector(raw->buf.get() + size_t{i} * kSector,
                    {raw->k, s / kSectorsPerBlock, static_cast<uint32_t>(s % kSectorsPerBlock)});
      }
    }
    set_busy(op, +1);
    ios_.push_back(std::move(io));
    rc = engine_->submit(op.kind == Kind::kWrite ? Direction::kWrite : Direction::kRead, op.offset,
                         op.length, raw->buf.get(), on_io, raw);
  }
  if (rc != 0) {
    fail("the engine refused a command: rc=" + std::to_string(rc));
    finish(raw);
  }
}

void Run::finish(Io* io) {
  set_busy(io->op, -1);
  std::erase_if(ios_, [io](const std::unique_ptr<Io>& p) { return p.get() == io; });
}

void Run::on_flush(void* arg, int status) {
  auto* io = static_cast<Io*>(arg);
  Run& run = *io->run;
  if (status != 0) run.fail("FLUSH failed: rc=" + std::to_string(status));
  run.model_.flush_completed(io->covered);
  ++run.flush_commands_;
  run.note(0xF1);
  run.finish(io);
}

void Run::on_io(void* arg, const cache::IoOutcome& outcome) {
  auto* io = static_cast<Io*>(arg);
  Run& run = *io->run;
  if (outcome.status != 0) {
    run.fail("a command failed: rc=" + std::to_string(outcome.status));
  } else if (io->op.kind == Kind::kWrite) {
    const uint64_t first = io->op.offset / kSector;
    // Journaled in write-back (no datastore share): durable at the acknowledgement.
    run.model_.acknowledged({io->k, first, first + io->op.length / kSector},
                            outcome.datastore.bytes == 0);
    ++run.out_.stats.acked_writes;
    if (outcome.datastore.bytes == 0) ++run.out_.stats.journaled_writes;
    run.note(io->k);
  } else {
    ++run.out_.stats.checked_reads;
    for (uint32_t i = 0; i < io->op.length / kSector; ++i) {
      const uint64_t s = io->op.offset / kSector + i;
      std::string why;
      if (check_sector(io->buf.get() + size_t{i} * kSector, s, run.model_.latest(s), run.next_k_,
                       true, &why) < 0) {
        run.fail("read during the run: " + why);
        break;
      }
    }
  }
  run.finish(io);
}

bool Run::step() {
  if (!next_ && ops_left_ > 0) next_ = make_op();
  const bool can_submit = next_ && ios_.size() < p_.queue_depth && fits(*next_);
  const size_t pending = tier_->in_flight() + ds_->in_flight();
  if (ops_left_ == 0 && ios_.empty() && pending == 0 && !engine_->busy()) return false;
  if (rng_() % 100 < p_.percent_ticks || (!can_submit && pending == 0)) {
    note(0x71C);
    engine_->tick();
  } else if (can_submit && (pending == 0 || rng_() % 3 == 0)) {
    const Op op = *next_;
    next_.reset();
    submit(op);
  } else {
    note(0xC0);
    complete_one();
  }
  return true;
}

void Run::run_phase(size_t phase) {
  ops_left_ = p_.ops;
  const bool recording = c_.cuts.empty();
  const uint64_t cut_at = recording ? UINT64_MAX : c_.cuts[phase];
  uint64_t steps = 0;
  where_ = "during phase " + std::to_string(phase) + ": ";
  while (steps < cut_at && !failed()) {
    const uint64_t before = flushes();
    if (!step()) break;
    ++steps;
    if (recording && flushes() != before) out_.flush_steps.push_back(steps);
    if (steps > kMaxSteps) {
      fail("the phase did not settle in " + std::to_string(kMaxSteps) + " steps");
      return;
    }
  }
  out_.phase_steps = steps;
  out_.stats.steps += steps;
  if (!recording && !failed()) cut(phase, steps);
}

// Power fails on both devices at once, the engine dies with everything in
// flight, then the volume restarts and every block is read back.
void Run::cut(size_t phase, uint64_t step) {
  where_ = "after the cut of phase " + std::to_string(phase) + " at step " + std::to_string(step) +
           ": ";
  const uint64_t seed = mix(c_.seed, phase << 32 | step);
  blockdev::CutReport rt, rd;
  tier_->cut_power(cut_for(seed), &rt);
  ds_->cut_power(cut_for(mix(seed, 1)), &rd);
  ++out_.stats.cuts;
  for (const auto* r : {&rt, &rd}) {
    out_.stats.unflushed_writes += r->unflushed_writes;
    out_.stats.kept_writes += r->kept_writes;
    out_.stats.torn_writes += r->torn_writes;
  }
  engine_.reset();  // no completion of it runs any more: the devices dropped them
  ios_.clear();
  std::fill(busy_.begin(), busy_.end(), 0);
  next_.reset();
  model_.power_cut();
  if (!open_engine(phase == 0 ? c_.recovery_cut : 0)) return;
  verify();
}

void Run::verify() {
  AlignedBytes buf = blockdev::allocate_aligned(kBlock, kBlock);
  for (uint64_t b = 0; b < p_.volume_blocks && !failed(); ++b) {
    struct Done {
      bool done = false;
      int status = 0;
    } d;
    auto cb = [](void* arg, const cache::IoOutcome& o) {
      auto* dd = static_cast<Done*>(arg);
      dd->done = true;
      dd->status = o.status;
    };
    if (engine_->submit(Direction::kRead, b * kBlock, kBlock, buf.get(), cb, &d) != 0) {
      fail("the recovered engine refused a read");
      return;
    }
    for (uint64_t guard = 0; !d.done && guard < kMaxSteps; ++guard) {
      if (tier_->in_flight() + ds_->in_flight() > 0) {
        complete_one();
      } else {
        engine_->tick();
      }
    }
    if (!d.done || d.status != 0) {
      fail("block " + std::to_string(b) + " cannot be read after recovery");
      return;
    }
    for (uint32_t i = 0; i < kSectorsPerBlock; ++i) {
      const uint64_t s = b * kSectorsPerBlock + i;
      std::string why;
      const int64_t k =
          check_sector(buf.get() + size_t{i} * kSector, s, model_.durable(s), next_k_, false, &why);
      if (k < 0) {
        fail(why);
        continue;
      }
      if (model_.durable(s) != 0) ++out_.stats.durable_sectors;
      model_.recovered(s, static_cast<uint64_t>(k));
    }
  }
}

void Run::execute() {
  if (!create_devices() || !open_engine(0)) return;
  const size_t phases = std::max<size_t>(1, c_.cuts.size());
  for (size_t phase = 0; phase < phases && !failed(); ++phase) run_phase(phase);
}

}  // namespace

void Stats::add(const Stats& o) {
  cuts += o.cuts;
  steps += o.steps;
  acked_writes += o.acked_writes;
  journaled_writes += o.journaled_writes;
  checked_reads += o.checked_reads;
  durable_sectors += o.durable_sectors;
  unflushed_writes += o.unflushed_writes;
  kept_writes += o.kept_writes;
  torn_writes += o.torn_writes;
  records_applied += o.records_applied;
  torn_records_ignored += o.torn_records_ignored;
}

Result run_case(const Profile& profile, const Case& c) {
  Result result;
  Run run(profile, c, &result);
  run.execute();
  return result;
}

}  // namespace tierwise::test::plsim
