// What write-back needs from the volume's ownership record: the epoch it
// holds, taking the next one, and learning that it was lost. The protocol
// (owner loss, peer takeover, fencing) is in docs/write-back.md "Owner loss";
// replication::Lease implements it over a lease file on shared storage.
#pragma once

#include <cstdint>
#include <string>

namespace tierwise::cache::writeback {

/*
 * Contract (all calls from the engine's thread):
 *  - read(): the epoch the record holds now (0 when there is none yet) and
 *    whether it is released: a released epoch has no dirty data anywhere (a
 *    peer's takeover destaged all of it). -errno with `error` on I/O errors.
 *  - acquire(): takes epoch `from` + 1 when the record still holds `from` and
 *    either it is released or `journal_epoch` == `from` (this tier holds that
 *    epoch's journal: the owner itself restarting). Returns 0 and the new epoch;
 *    -EBUSY with `error` when another owner holds it (its dirty data may be only
 *    on its peers: a peer takes over once the lease expires); -ESTALE when the
 *    record moved past `from`. From then on the implementation keeps the lease.
 *    The holder that bumped its own epoch with advance() may take the next one
 *    from a tier whose journal is of an older epoch (a crash between advance()
 *    and the superblock that records it: that journal was empty).
 *  - advance(): while holding the lease, moves it to the next epoch and returns
 *    it. After a peer failure drained the journal (write-through), this makes
 *    the replicas of the older epoch that unreachable peers still hold obsolete:
 *    they drop them instead of ever applying them. -ESTALE once lost.
 *  - lost(): true, with the reason, once the lease was taken by another epoch
 *    or could not be kept: the engine must stop writing to the datastore.
 */
class Ownership {
 public:
  virtual ~Ownership() = default;
  virtual int read(uint64_t* epoch, bool* released, std::string* error) = 0;
  virtual int acquire(uint64_t from, uint64_t journal_epoch, uint64_t* epoch, std::string* error) = 0;
  virtual int advance(uint64_t* epoch, std::string* error) = 0;
  virtual bool lost(std::string* reason) const = 0;
};

}  // namespace tierwise::cache::writeback
