#include "cache/cache_engine.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace tierwise::cache {
namespace {

int64_t nanos(std::chrono::steady_clock::duration d) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
}

}  // namespace

int CacheEngine::create(blockdev::BlockDevice& datastore, blockdev::BlockDevice& tier,
                        uint64_t tier_capacity_bytes, const EvictionOptions& eviction,
                        std::unique_ptr<CacheEngine>* out) {
  const uint64_t slots = tier_capacity_bytes / kBlockBytes;
  if (slots == 0 || slots + eviction.staging_slots >= TierIndex::kNoSlot) return -EINVAL;
  if (kSectorBytes % datastore.block_size() != 0 || kSectorBytes % tier.block_size() != 0 ||
      kSectorBytes % tier.buffer_alignment() != 0) {
    return -EINVAL;
  }
  out->reset(new CacheEngine(datastore, tier, static_cast<uint32_t>(slots), eviction));
  (*out)->counters_.capacity_bytes = slots * kBlockBytes;
  return 0;
}


int CacheEngine::set_tier_capacity(uint64_t capacity_bytes, uint64_t device_room_bytes) {
  const uint64_t slots = capacity_bytes / kBlockBytes;
  if (slots == 0 || capacity_bytes % kBlockBytes != 0 || slots < min_slots()) return -EINVAL;
  // Slot numbers stay below kNoSlot with the staging room on top.
  if (capacity_bytes > device_room_bytes || slots >= TierIndex::kNoSlot / 2) return -ENOSPC;
  counters_.eviction_bytes += uint64_t{index_.resize(static_cast<uint32_t>(slots))} * kBlockBytes;
  counters_.capacity_bytes = capacity_bytes;
  count_occupancy();
  return 0;
}

int CacheEngine::submit(Direction direction, uint64_t offset, uint32_t length, void* buf,
                        FrontendCompletion cb, void* cb_arg) {
  if (length == 0 || offset % kSectorBytes != 0 || length % kSectorBytes != 0 ||
      offset > UINT64_MAX - length ||
      reinterpret_cast<uintptr_t>(buf) % datastore_.buffer_alignment() != 0) {
    return -EINVAL;
  }
  if (wb_ && direction == Direction::kWrite && !journal_fits(offset, length)) return -EINVAL;
  if (fenced() || tier_unavailable()) return -EIO;
  Request* r = requests_.acquire();
  r->engine = this;
  r->direction = direction;
  r->offset = offset;
  r->length = length;
  r->buf = static_cast<std::byte*>(buf);
  r->cb = cb;
  r->cb_arg = cb_arg;
  r->first_block = offset / kBlockBytes;
  reset_attempt(r);
  ++in_flight_;
  r->start = Clock::now();
  start(r);
  return 0;
}

void CacheEngine::reset_attempt(Request* r) {
  r->status = 0;
  r->tier_status = 0;
  r->cache_bytes = 0;
  r->datastore_bytes = 0;
  r->peer_bytes = 0;
  r->to_datastore = true;
  r->first_seq = 1;
  r->last_seq = 0;  // no journal records
  r->record_writes = 0;
  r->awaiting_replicas = false;
  r->plan.clear();
  r->runs.clear();
}

void CacheEngine::start(Request* r) {
  if (tier_state_ == TierState::kRecovering) {
    tier_retry_.push_back(r);  // started again once the journal is on the datastore
    return;
  }
  r->pending = 1;  // held here until every part is issued
  if (tier_state_ != TierState::kHealthy) {
    start_direct(r);
  } else if (r->direction == Direction::kRead) {
    plan_blocks(r);
    start_read(r);
  } else {
    // start() runs again when there is room, or when the destages of its blocks completed.
    if (wb_ && (wait_for_ring(r) || wait_for_destages(r))) return;
    plan_blocks(r);
    if (wb_) plan_journal(r);
    start_write(r);
  }
  put(r);
}

int CacheEngine::submit_flush(blockdev::IoCompletion cb, void* cb_arg) {
  return datastore_.submit_flush(cb, cb_arg);
}

int CacheEngine::submit_discard(uint64_t offset, uint32_t length, blockdev::IoCompletion cb,
                                void* cb_arg) {
  if (length == 0 || offset % kSectorBytes != 0 || length % kSectorBytes != 0 ||
      offset > UINT64_MAX - length) {
    return -EINVAL;
  }
  // Write-back keeps dirty blocks and their journal records until destaged;
  // dropping them here would let a later destage undo the discard.
  if (mode() == CacheMode::kWriteBack) return -EOPNOTSUPP;
  const uint64_t first = (offset + kBlockBytes - 1) / kBlockBytes;
  const uint64_t end = (offset + length) / kBlockBytes;
  if (first >= end) {
    cb(cb_arg, 0);  // no whole block: nothing to deallocate
    return 0;
  }
  for (uint64_t block = first; block < end; ++block) {
    if (const uint32_t slot = index_.find(block); slot != TierIndex::kNoSlot) {
      index_.pin(slot);
      index_.unpin(slot, /*drop=*/true);  // leaves the tier; not an eviction
    }
  }
  count_occupancy();
  return datastore_.submit_discard(first * kBlockBytes,
                                   static_cast<uint32_t>((end - first) * kBlockBytes), cb, cb_arg);
}

void CacheEngine::event(std::string_view text) {
  if (on_event_) on_event_(text);
}

void CacheEngine::count_occupancy() {
  counters_.occupancy_bytes = counters_.tier_disabled ? 0 : uint64_t{index_.size()} * kBlockBytes;
}

void CacheEngine::covered(const Request* r, uint32_t i, uint64_t* lo, uint64_t* hi) const {
  const uint64_t block_start = (r->first_block + i) * kBlockBytes;
  *lo = std::max(block_start, r->offset);
  *hi = std::min(block_start + kBlockBytes, r->offset + r->length);
}

void CacheEngine::plan_blocks(Request* r) {
  const uint64_t last_block = (r->offset + r->length - 1) / kBlockBytes;
  const auto n = static_cast<uint32_t>(last_block - r->first_block + 1);
  const int d = static_cast<int>(r->direction);
  r->plan.assign(n, BlockPlan{TierIndex::kNoSlot, false, false});
  r->runs.clear();
  const bool sequential = cutoff_.bypass(r->offset, r->length);
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t block = r->first_block + i;
    const uint32_t slot = index_.find(block);
    if (slot != TierIndex::kNoSlot) {
      ++counters_.hit_blocks[d];
      index_.touch(slot);
      index_.pin(slot);
      r->plan[i].slot = slot;
      continue;
    }
    ++counters_.miss_blocks[d];
    bool needs_fill = false;
    if (r->direction == Direction::kRead) {
      if (!r->runs.empty() && r->runs.back().first + r->runs.back().count == i) {
        ++r->runs.back().count;
      } else {
        r->runs.push_back(MissRun{r, i, 1});
      }
    } else {
      uint64_t lo = 0, hi = 0;
      covered(r, i, &lo, &hi);
      needs_fill = hi - lo < kBlockBytes;  // the rest of the block comes from the datastore
    }
    if (sequential) {
      counters_.bypass_bytes += kBlockBytes;
      continue;
    }
    const TierIndex::Insertion ins = index_.insert(block);
    if (ins.evicted) counters_.eviction_bytes += kBlockBytes;
    if (ins.slot == TierIndex::kNoSlot) continue;  // no free slot (deferred eviction)
    index_.pin(ins.slot);
    r->plan[i] = BlockPlan{ins.slot, true, false};
    if (needs_fill) r->runs.push_back(MissRun{r, i, 1});
  }
  count_occupancy();
}

void CacheEngine::start_read(Request* r) {
  const auto n = static_cast<uint32_t>(r->plan.size());
  for (uint32_t i = 0; i < n && r->status == 0 && r->tier_status == 0; ++i) {
    const BlockPlan& p = r->plan[i];
    if (p.slot == TierIndex::kNoSlot || p.fresh) continue;
    uint64_t lo = 0, hi = 0;
    covered(r, i, &lo, &hi);
    if (r->cache_bytes == 0) r->cache_start = Clock::now();
    r->cache_bytes += static_cast<uint32_t>(hi - lo);
    ++r->pending;
    const uint64_t tier_offset = slot_offset(p.slot) + (lo - (r->first_block + i) * kBlockBytes);
    const int rc = tier_.submit_read(r->buf + (lo - r->offset), tier_offset,
                                     static_cast<uint32_t>(hi - lo), on_tier_read, r);
    if (rc != 0) {
      --r->pending;
      tier_fail(r, rc);
    }
  }
  if (r->runs.empty() || r->status != 0 || r->tier_status != 0 || !reserve_bounce(r)) return;
  for (const MissRun& run : r->runs) {
    for (uint32_t i = run.first; i < run.first + run.count; ++i) {
      uint64_t lo = 0, hi = 0;
      covered(r, i, &lo, &hi);
      r->datastore_bytes += static_cast<uint32_t>(hi - lo);
    }
  }
  r->datastore_start = Clock::now();
  if (const int rc = submit_runs(r); rc != 0) fail(r, rc);
}

bool CacheEngine::reserve_bounce(Request* r) {
  const size_t need = r->plan.size() * kBlockBytes;
  if (r->bounce_bytes >= need) return true;
  r->bounce = blockdev::allocate_aligned(
      need, std::max<size_t>(datastore_.buffer_alignment(), kBlockBytes));
  r->bounce_bytes = r->bounce ? need : 0;
  if (!r->bounce) fail(r, -ENOMEM);
  return r->bounce != nullptr;
}

int CacheEngine::submit_runs(Request* r) {
  for (MissRun& run : r->runs) {
    ++r->pending;
    const int rc = datastore_.submit_read(
        r->bounce.get() + size_t{run.first} * kBlockBytes,
        (r->first_block + run.first) * kBlockBytes, run.count * kBlockBytes,
        on_datastore_read, &run);
    if (rc != 0) {
      --r->pending;
      return rc;
    }
  }
  return 0;
}

void CacheEngine::fill_from_run(MissRun* run) {
  Request* r = run->req;
  for (uint32_t i = run->first; i < run->first + run->count; ++i) {
    uint64_t lo = 0, hi = 0;
    covered(r, i, &lo, &hi);
    std::byte* block = r->bounce.get() + size_t{i} * kBlockBytes;
    std::byte* part = block + (lo - (r->first_block + i) * kBlockBytes);
    if (r->direction == Direction::kRead) {
      std::memcpy(r->buf + (lo - r->offset), part, hi - lo);  // serve the miss
    } else {
      std::memcpy(part, r->buf + (lo - r->offset), hi - lo);  // the write over the old block
    }
    const BlockPlan& p = r->plan[i];
    if (p.slot == TierIndex::kNoSlot) continue;
    ++r->pending;
    const int rc = tier_.submit_write(block, slot_offset(p.slot), kBlockBytes, on_tier_write, r);
    if (rc != 0) {
      --r->pending;
      tier_fail(r, rc);
    }
  }
}

void CacheEngine::start_write(Request* r) {
  const auto n = static_cast<uint32_t>(r->plan.size());
  size_t fill = 0;  // index into runs: blocks filled from the datastore, in block order
  for (uint32_t i = 0; i < n && r->status == 0 && r->tier_status == 0; ++i) {
    const BlockPlan& p = r->plan[i];
    if (p.slot == TierIndex::kNoSlot) continue;
    if (fill < r->runs.size() && r->runs[fill].first == i) {
      ++fill;  // written into the tier once the rest of the block arrived
      continue;
    }
    uint64_t lo = 0, hi = 0;
    covered(r, i, &lo, &hi);
    ++r->pending;
    const uint64_t tier_offset = slot_offset(p.slot) + (lo - (r->first_block + i) * kBlockBytes);
    const int rc = tier_.submit_write(r->buf + (lo - r->offset), tier_offset,
                                      static_cast<uint32_t>(hi - lo), on_tier_write, r);
    if (rc != 0) {
      --r->pending;
      tier_fail(r, rc);
    }
  }
  if (r->status != 0 || r->tier_status != 0) return;
  if (r->last_seq >= r->first_seq) submit_records(r);
  if (r->to_datastore) {
    r->datastore_bytes = r->length;
    r->datastore_start = Clock::now();
    ++r->pending;
    const int rc = datastore_.submit_write(r->buf, r->offset, r->length, on_datastore_write, r);
    if (rc != 0) {
      --r->pending;
      fail(r, rc);
      return;
    }
  }
  if (r->runs.empty() || !reserve_bounce(r)) return;
  counters_.fill_bytes += r->runs.size() * kBlockBytes;
  if (const int fill_rc = submit_runs(r); fill_rc != 0) fail(r, fill_rc);
}

void CacheEngine::fail(Request* r, int status) {
  if (r->status == 0) r->status = status;
}

void CacheEngine::put(Request* r) {
  if (--r->pending == 0) finish(r);
}

void CacheEngine::release_plan(Request* r) {
  const bool is_write = r->direction == Direction::kWrite;
  const bool failed = r->status != 0 || r->tier_status != 0;
  if (r->last_seq >= r->first_seq) finish_journal(r);
  uint64_t fresh = 0;
  for (const BlockPlan& p : r->plan) {
    if (p.slot == TierIndex::kNoSlot) continue;
    // The tier must not hold what the datastore lacks; a dirty block stays
    // whatever happened: its journal record may be durable, and a failed write
    // leaves its bytes undefined, as on a disk.
    const bool dirty = p.seq != 0 && dirty_pinned(r->first_block + (&p - r->plan.data()), p.slot);
    const bool drop = !dirty && (p.unfilled || (failed && (p.fresh || is_write)));
    index_.unpin(p.slot, drop);
    if (!drop && p.fresh) ++fresh;
  }
  r->plan.clear();
  counters_.population_bytes += fresh * kBlockBytes;
  count_occupancy();
}

void CacheEngine::finish(Request* r) {
  release_plan(r);
  if (r->tier_status != 0 && r->status == 0 && retry_without_tier(r)) return;
  const Clock::time_point end = Clock::now();
  IoOutcome out;
  out.status = r->status;
  out.direction = r->direction;
  out.length_bytes = r->length;
  out.frontend_latency_ns = nanos(end - r->start);
  out.completion_ns = nanos(end.time_since_epoch());
  if (r->cache_bytes > 0) {
    out.cache = SourceShare{r->cache_bytes, nanos(r->cache_end - r->cache_start)};
  }
  if (r->datastore_bytes > 0) {
    out.datastore = SourceShare{r->datastore_bytes, nanos(r->datastore_end - r->datastore_start)};
  }
  if (r->peer_bytes > 0) {
    out.peer = SourceShare{r->peer_bytes, nanos(r->peer_end - r->peer_start)};
  }
  const FrontendCompletion cb = r->cb;
  void* const cb_arg = r->cb_arg;
  requests_.release(r);
  --in_flight_;
  cb(cb_arg, out);
}

void CacheEngine::on_tier_read(void* arg, int status) {
  auto* r = static_cast<Request*>(arg);
  r->cache_end = Clock::now();
  if (status != 0) r->engine->tier_fail(r, status);
  r->engine->put(r);
}

void CacheEngine::on_tier_write(void* arg, int status) {
  auto* r = static_cast<Request*>(arg);
  if (status != 0) r->engine->tier_fail(r, status);
  r->engine->put(r);
}

void CacheEngine::on_datastore_read(void* arg, int status) {
  auto* run = static_cast<MissRun*>(arg);
  Request* r = run->req;
  const bool is_read = r->direction == Direction::kRead;
  if (is_read) r->datastore_end = Clock::now();
  if (status == 0) {
    r->engine->fill_from_run(run);
  } else if (is_read || (r->plan[run->first].seq != 0 && !r->to_datastore)) {
    r->engine->fail(r, status);  // a read, or a dirty block that needs its old bytes
  } else {
    // The write itself may well succeed: only leave this block out of the tier.
    r->plan[run->first].unfilled = true;
  }
  r->engine->put(r);
}

// Also the completion of a direct read (start_direct).
void CacheEngine::on_datastore_write(void* arg, int status) {
  auto* r = static_cast<Request*>(arg);
  r->datastore_end = Clock::now();
  if (status != 0) r->engine->fail(r, status);
  r->engine->put(r);
}

}  // namespace tierwise::cache
