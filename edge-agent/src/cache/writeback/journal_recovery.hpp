// Start-up of a write-back tier: recovers the journal's dirty map (validated by
// checksums and sequence numbers) and applies it to the datastore, or formats a
// fresh tier. The on-tier format and the recovery rules: journal_format.hpp.
#pragma once

#include <cstdint>
#include <string>

#include "blockdev/block_device.hpp"
#include "cache/writeback/journal_format.hpp"
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
 * After it returns 0, the tier holds no live record and the datastore holds every
 * acknowledged write. Returns -EIO with `error` set when a record that was
 * flushed (hence possibly acknowledged) is torn, when the superblock belongs to
 * another volume (-EINVAL), or any device error (-errno).
 */
int recover_journal(blockdev::BlockDevice& tier, blockdev::BlockDevice& datastore,
                    uint32_t entry_count, uint64_t volume_id, const PollDevices& poll,
                    RecoveryReport* report, std::string* error);

}  // namespace tierwise::cache::writeback
