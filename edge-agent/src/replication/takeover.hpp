// A peer's takeover of a WB+n volume whose owner is gone: fence the owner's
// epoch in the lease, destage the replicated records to the shared datastore
// in sequence order, release the lease (docs/write-back.md "Owner loss").
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "replication/protocol.hpp"

namespace tierwise::replication {

struct TakeoverReport {
  uint64_t epoch = 0;             // the epoch taken over; the lease ends released at epoch + 1
  uint64_t records = 0;           // journal records written to the datastore
  uint64_t bytes = 0;             // their data bytes
  uint64_t destaged_through = 0;  // highest sequence number written
};

// Writes the data of `records` (sequence number -> journal record) to the
// datastore file `path`, lowest sequence first, then fdatasync(2); counts them
// in `report` (records, bytes, destaged_through; epoch untouched). Returns 0 or
// -errno with `error` (-EBADMSG for a damaged record). Used by take_over and
// by a peer answering its owner's DESTAGE (frame.hpp).
int destage_records(const std::string& path, const std::map<uint64_t, std::vector<std::byte>>& records,
                    TakeoverReport* report, std::string* error);

/*
 * Takes volume `volume_id` over from epoch `hello.epoch`:
 *  1. under the lease (hello.lease_file): refuses with -ESTALE when the lease
 *     moved past that epoch (the records are obsolete: drop them) and -EBUSY
 *     when it was renewed since `renewals_seen` (the owner lives); otherwise
 *     writes epoch + 1 owned by `holder` (the owner is fenced from here on);
 *  2. writes every record of `records` (sequence number -> journal record,
 *     cache/writeback/journal_format.hpp) to hello.datastore in sequence
 *     order, then fdatasync(2);
 *  3. releases the lease (state released, destaged_through).
 * Returns 0 or -errno with `error`. A failure after step 1 leaves the lease
 * owned by the peer: nobody destages over it until an operator looks.
 */
int take_over(uint64_t volume_id, const Hello& hello, uint64_t renewals_seen,
              const std::map<uint64_t, std::vector<std::byte>>& records, const std::string& holder,
              TakeoverReport* report, std::string* error);

}  // namespace tierwise::replication
