// Start-up of a write-back tier: recovers the journal's dirty map (validated by
// checksums and sequence numbers) and applies it to the datastore, or formats a
// fresh tier. The on-tier format and the recovery rules: journal_format.hpp.
#pragma once

#include <cstdint>
#include <string>

#include "blockdev/block_device.hpp"
#include "cache/writeback/journal_format.hpp"
#include "cache/writeback/ownership.hpp"
#include "cache/writeback/sync_io.hpp"

namespace tierwise::cache::writeback {

struct RecoveryReport {
  bool formatted = false;           // no valid superblock: a fresh tier was formatted
  uint64_t watermark_before = 0;    // W found in the superblock
  uint64_t records_applied = 0;     // live records written to the datastore
  uint64_t blocks_applied = 0;      // distinct 4 KiB blocks they covered
  uint64_t bytes_applied = 0;       // data bytes of those records
  uint64_t torn_ignored = 0;        // torn records above every durable_through
  uint64_t stale_ignored = 0;       // valid headers of another volume or ring geometry
  uint64_t fenced_discarded = 0;    // live records of an epoch a peer took over (not applied)
  uint64_t fenced_epoch = 0;        // that epoch (the tier's), when fenced_discarded > 0
  uint64_t epoch = 0;               // the epoch the volume runs as (superblock written at the end)
  uint64_t next_seq = 1;            // first sequence number the volume may use
  uint64_t generation = 0;          // generation of the superblock written at the end
};

/*
 * Opens the journal on `tier` for volume `volume_id` with a ring of
 * `entry_count` entries:
 *  - reads both superblocks (none valid: the tier is fresh);
 *  - with a superblock, reads its ring, validates every record (journal_format.hpp)
 *    and writes the live ones to `datastore` in sequence order per block, then
 *    flushes the datastore;
 *  - writes a superblock with W = the highest sequence number seen and the new
 *    `entry_count` (the ring geometry may change between runs), then flushes the tier.
 * With `ownership` (WB+n), the superblock's epoch is checked against the
 * lease first: the same epoch replays; a lower one means a peer took the
 * volume over and destaged that epoch's acknowledged writes, and newer data
 * may be on the datastore since, so the live records are discarded, not
 * applied (fencing; counted in fenced_discarded); a higher one, or a fresh tier
 * while another owner holds the lease, is refused. After the datastore flush
 * the next epoch is acquired and written in the final superblock: a crash
 * between the two finds an empty journal of a lower epoch, which is harmless.
 * After it returns 0, the tier holds no live record and the datastore holds every
 * acknowledged write. Returns -EIO with `error` set when a record that was
 * flushed (hence possibly acknowledged) is torn, -EINVAL when the superblock
 * belongs to another volume, -ESTALE when the tier's epoch is ahead of the
 * lease (the lease record was replaced), -EBUSY as Ownership::acquire, or any
 * device error (-errno).
 */
int recover_journal(blockdev::BlockDevice& tier, blockdev::BlockDevice& datastore,
                    uint32_t entry_count, uint64_t volume_id, Ownership* ownership,
                    const PollDevices& poll, RecoveryReport* report, std::string* error);

}  // namespace tierwise::cache::writeback
