// Tier failure half of the CacheEngine: what happens after the first error of
// a tier read, write or flush (CacheEngine "Tier failure", docs/write-back.md
// "Tier failure").
#include <algorithm>
#include <cerrno>
#include <cstring>

#include "cache/cache_engine.hpp"
#include "cache/cache_engine_writeback_state.hpp"

namespace tierwise::cache {

/*
 * Lifecycle of a tier failure
 *
 * kHealthy -> (first tier error) ->
 *   write-through engine: kBypassed at once.
 *   write-back engine: kRecovering:
 *     step 0  settle: the writes waiting for ring space or a destage are
 *             parked with every new I/O; the group commit in flight, destages
 *             and a watermark advance end (a tier part that fails parks its
 *             I/O too); wait until every I/O left is parked or only waits
 *             for its peers' acknowledgement.
 *     step 1  nothing above the watermark: go on. Else one peer writes its
 *             records above the watermark to the datastore (DESTAGE); it
 *             holds every record sent, so every acknowledged write.
 *     step 2  flush the datastore (the engine's own destages since the last
 *             watermark advance).
 *     done    the lease moves to the next epoch (a restart on the failed tier
 *             then discards its journal as fenced: journal_recovery.hpp), the
 *             peers trim, the journal state is cleared -> kBypassed, and the
 *             parked I/Os start from the datastore.
 *   Records above the watermark with no peer to destage them (WB+0, failed
 *   peers), no lease to fence the journal, or a failed peer destage or
 *   flush -> kUnavailable: parked and new I/Os fail with EIO.
 * In kBypassed every I/O goes to the datastore (start_direct) and the tier is
 * never touched again; an agent restart on a replaced tier starts afresh.
 */

void CacheEngine::tier_fail(Request* r, int status) {
  if (r->tier_status == 0) r->tier_status = status;
  tier_error(status, r->direction == Direction::kRead ? "a read" : "a write");
}

void CacheEngine::tier_error(int status, std::string_view what) {
  ++counters_.tier_errors;
  if (tier_state_ != TierState::kHealthy) return;
  counters_.tier_disabled = true;
  count_occupancy();
  const std::string cause = std::string("tier failed (") + std::strerror(-status) + " in " +
                            std::string(what) + ")";
  if (!wb_) {
    tier_state_ = TierState::kBypassed;
    event(cause + ": the tier is disabled, every I/O goes to the datastore; replace the tier "
                  "device and restart the agent to cache again");
    return;
  }
  WriteBack& w = *wb_;
  // A WB+n volume ends write-through: a fallback, as after a peer failure (only
  // volumes with peers fall back: the metrics job clears the flag when peers are healthy again).
  if (mode() == CacheMode::kWriteBack && w.options.replicas) ++counters_.fallbacks;
  tier_state_ = TierState::kRecovering;
  w.tier_step = 0;
  w.tier_failed_at = Clock::now();
  event(cause + ": parking I/O while " + std::to_string(counters_.dirty_bytes) +
        " dirty bytes reach the datastore from the peers");
  tier_retry_.insert(tier_retry_.end(), w.ring_waiters.begin(), w.ring_waiters.end());
  tier_retry_.insert(tier_retry_.end(), w.destage_waiters.begin(), w.destage_waiters.end());
  w.ring_waiters.clear();
  w.destage_waiters.clear();
}

bool CacheEngine::retry_without_tier(Request* r) {
  if (tier_state_ == TierState::kUnavailable) {
    r->status = -EIO;
    return false;
  }
  reset_attempt(r);
  start(r);  // parked while recovering, else straight to the datastore
  return true;
}

void CacheEngine::start_direct(Request* r) {
  if (tier_state_ == TierState::kUnavailable) {
    fail(r, -EIO);
    return;
  }
  const uint64_t blocks = (r->offset + r->length - 1) / kBlockBytes - r->first_block + 1;
  counters_.miss_blocks[static_cast<int>(r->direction)] += blocks;
  r->datastore_bytes = r->length;
  r->datastore_start = Clock::now();
  ++r->pending;
  const int rc = r->direction == Direction::kRead
                     ? datastore_.submit_read(r->buf, r->offset, r->length, on_datastore_write, r)
                     : datastore_.submit_write(r->buf, r->offset, r->length, on_datastore_write, r);
  if (rc != 0) {
    --r->pending;
    fail(r, rc);
  }
}

void CacheEngine::continue_tier_recovery() {
  WriteBack& w = *wb_;
  if (w.tier_step == 0) {
    const bool settled = w.destages_in_flight == 0 && !w.advancing && !w.commit_in_flight &&
                         w.unflushed.empty() &&
                         in_flight_ == tier_retry_.size() + w.replica_waiters.size();
    if (!settled) return;
    if (w.next_seq - 1 == w.watermark) {
      finish_tier_recovery();  // the journal holds nothing the datastore lacks
      return;
    }
    if (!w.options.replicas || w.peers_failed) {
      make_unavailable(std::to_string(w.next_seq - 1 - w.watermark) +
                       " journal records above the watermark had no other copy (" +
                       (w.options.replicas ? "the peers had failed" : "no peers: WB+0") + ")");
      return;
    }
    if (!w.options.ownership) {
      make_unavailable("no lease to fence the failed tier's journal with");
      return;
    }
    w.options.replicas->destage(w.watermark);
    w.tier_step = 1;
    return;
  }
  if (w.tier_step == 1) {
    uint64_t through = 0;
    std::string why;
    const int rc = w.options.replicas->destaged(&through, &why);
    if (rc == -EINPROGRESS) return;
    if (rc != 0) {
      make_unavailable("the peer could not destage the journal: " + why);
      return;
    }
    if (through < w.replicated_through) {
      make_unavailable("the peer destaged records through " + std::to_string(through) + " of " +
                       std::to_string(w.replicated_through));
      return;
    }
    event("the peer destaged records " + std::to_string(w.watermark + 1) + ".." +
          std::to_string(through) + " to the datastore");
    w.tier_step = 2;
    if (const int flush_rc = datastore_.submit_flush(on_tier_recovery_flushed, this); flush_rc != 0) {
      on_tier_recovery_flushed(this, flush_rc);
    }
  }
  // Step 2: on_tier_recovery_flushed moves on.
}

void CacheEngine::on_tier_recovery_flushed(void* arg, int status) {
  auto* e = static_cast<CacheEngine*>(arg);
  if (status != 0) {
    e->make_unavailable(std::string("flushing the datastore failed: ") + std::strerror(-status));
    return;
  }
  e->finish_tier_recovery();
}

void CacheEngine::finish_tier_recovery() {
  WriteBack& w = *wb_;
  const uint64_t last = w.next_seq - 1;
  if (last > w.watermark) {
    // The failed tier's journal still holds these records: a restart must not
    // replay them over the writes that follow, so its epoch ends here.
    uint64_t next = 0;
    std::string error;
    if (w.options.ownership->advance(&next, &error) != 0) {
      make_unavailable("cannot move the lease to the next epoch: " + error);
      return;
    }
    w.epoch = next;
  }
  if (w.options.replicas && !w.peers_failed) w.options.replicas->trim(last);
  w.watermark = w.durable_through = last;
  w.dirty.clear();
  w.trim_pending.clear();
  w.mode = CacheMode::kWriteThrough;
  w.drain_reported = true;
  counters_.dirty_bytes = 0;
  counters_.backlog_bytes = 0;
  counters_.write_back = false;
  tier_state_ = TierState::kBypassed;
  const auto parked_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - w.tier_failed_at).count();
  event("tier disabled: the journal is on the datastore (epoch " + std::to_string(w.epoch) +
        "); the volume runs write-through without a tier and " + std::to_string(tier_retry_.size()) +
        " I/Os parked for " + std::to_string(parked_ms) +
        " ms resume; replace the tier device and restart the agent to cache again");
  release_waiters();  // the writes that waited for their peers are on the datastore now
  std::vector<Request*> parked;
  parked.swap(tier_retry_);
  for (Request* r : parked) start(r);
}

void CacheEngine::make_unavailable(const std::string& why) {
  WriteBack& w = *wb_;
  tier_state_ = TierState::kUnavailable;
  event("volume unavailable after the tier failure: " + why +
        "; every I/O fails with EIO until the agent restarts on the repaired tier");
  std::vector<Request*> parked;
  parked.swap(tier_retry_);
  std::vector<Request*> waiting;
  waiting.swap(w.replica_waiters);  // never acknowledged: their records may be lost
  for (Request* r : waiting) {
    fail(r, -EIO);
    put(r);
  }
  for (Request* r : parked) {
    r->pending = 1;
    fail(r, -EIO);
    put(r);
  }
}

}  // namespace tierwise::cache
