// The write-back journal's on-tier format: layout, superblock and record
// encodings with CRC-32C checksums (ISA-L crc32_iscsi).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace tierwise::cache::writeback {

/*
 * On-tier format (records version 1, superblock version 2). All integers
 * little-endian; all offsets bytes.
 *
 *   [0, 512)            superblock copy A
 *   [4096, 4608)        superblock copy B
 *   [8192, 8192 + E*4608)  the journal ring: E entries of kEntryBytes
 *   [slot_base, ...)    the cache slots, 4 KiB each (slot_base = ring end
 *                       rounded up to 4 KiB)
 *
 * Superblock (one 512-byte sector; the two copies are written alternately, the
 * valid copy with the higher generation wins, so a torn superblock write falls
 * back to the previous one):
 *   0  u64 magic "TWSUPER1"      8  u32 version (2)      12 u32 entry_count E
 *   16 u64 generation            24 u64 watermark W      32 u64 volume_id
 *   40 u64 epoch                 48 u32 crc32c of bytes [0, 48)
 * (Version 1, still read: no epoch, the crc32c at 40; its epoch reads as 0.)
 * Every record with seq <= W has been destaged to the datastore and the datastore
 * flushed before the superblock holding W was written: such records are dead.
 * epoch: the ownership generation whose owner wrote the live records (the
 * volume's lease record, replication/lease.hpp; 0 without one). Recovery
 * replays them only while the lease still holds that epoch: a higher one means
 * a peer took the volume over and destaged them (docs/write-back.md "Owner loss").
 *
 * Record (one ring entry; one 4 KiB block's written sectors). Record `seq` lives
 * in entry (seq - 1) % E, so ring order is sequence order and the ring's tail
 * is W + 1. Header sector:
 *   0  u32 magic "TWJR"   4 u16 version (1)   6 u16 reserved
 *   8  u64 seq (>= 1)     16 u64 block (4 KiB block number in the volume)
 *   24 u16 offset in block (multiple of 512)   26 u16 length (512..4096, sectors)
 *   28 u32 data crc32c    32 u64 durable_through   40 u64 volume_id
 *   48 u32 header crc32c of bytes [0, 48)
 * followed by `length` data bytes at header + 512. Header and data are one
 * write, so a record is either whole or detectably torn (header valid, data
 * crc wrong; a header that did not land leaves the entry's previous header).
 * durable_through: when the record was written, every record with a sequence
 * number <= it was on the tier and flushed (hence possibly acknowledged).
 *
 * Recovery (journal_recovery.hpp): read both superblocks (none valid: a fresh
 * tier); read every entry; keep records with seq > W whose header is valid,
 * whose entry matches (seq - 1) % E and whose volume_id matches. A record whose
 * data crc fails is torn: ignored when its seq is above every durable_through
 * seen (it was never flushed, so never acknowledged), otherwise recovery fails
 * (an acknowledged write is damaged). The surviving records are applied to the
 * datastore in sequence order per block, the datastore flushed, and W raised
 * to the highest sequence seen in a new superblock (then flushed) before the
 * volume serves I/O.
 */
inline constexpr uint32_t kFormatVersion = 1;      // of records
inline constexpr uint32_t kSuperblockVersion = 2;
inline constexpr uint32_t kSectorBytes = 512;
inline constexpr uint32_t kBlockBytes = 4096;
inline constexpr uint32_t kEntryBytes = kSectorBytes + kBlockBytes;  // 4608
inline constexpr uint64_t kSuperblockOffsets[2] = {0, 4096};
inline constexpr uint64_t kRingOffset = 8192;

// Where the parts of a tier live for a ring of `entry_count` entries.
struct TierLayout {
  uint32_t entry_count = 0;
  uint64_t ring_offset = kRingOffset;
  uint64_t slot_base = 0;  // first cache slot, a multiple of 4096

  static TierLayout for_entries(uint32_t entry_count);
  uint64_t entry_offset(uint64_t seq) const {
    return ring_offset + ((seq - 1) % entry_count) * uint64_t{kEntryBytes};
  }
};

struct Superblock {
  uint32_t entry_count = 0;
  uint64_t generation = 0;
  uint64_t watermark = 0;
  uint64_t volume_id = 0;
  uint64_t epoch = 0;
};

struct RecordHeader {
  uint64_t seq = 0;
  uint64_t block = 0;
  uint16_t offset = 0;  // bytes into the block
  uint16_t length = 0;  // data bytes
  uint32_t data_crc = 0;
  uint64_t durable_through = 0;
  uint64_t volume_id = 0;
};

// CRC-32C (Castagnoli, iSCSI polynomial 0x1EDC6F41; RFC 3720 B.4) of `bytes`
// ("123456789" -> 0xE3069283). `previous`: the CRC of the bytes before these,
// to checksum a message in parts (0 for the first part).
uint32_t crc32c(std::span<const std::byte> bytes, uint32_t previous = 0);

// Writes the superblock into `sector` (512 bytes, zeroed first).
void encode_superblock(const Superblock& sb, std::span<std::byte, kSectorBytes> sector);
// The superblock in `sector`, or nothing when its magic, version or crc is wrong.
std::optional<Superblock> decode_superblock(std::span<const std::byte, kSectorBytes> sector);

// Writes header + data into `entry` (at least 512 + data.size() bytes): fills
// header.data_crc from `data`. data.size() must be 512..4096, a multiple of 512.
void encode_record(RecordHeader header, std::span<const std::byte> data,
                   std::span<std::byte> entry);
// The header in the first sector of `entry`, or nothing when the magic, version,
// header crc or length field is wrong (an entry never written, or garbage).
std::optional<RecordHeader> decode_record_header(std::span<const std::byte, kSectorBytes> sector);
// True when the data after the header matches header.data_crc.
bool record_data_intact(const RecordHeader& header, std::span<const std::byte> entry);

}  // namespace tierwise::cache::writeback
