#include "cache/writeback/journal_recovery.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <vector>

#include "blockdev/aligned_buffer.hpp"

namespace tierwise::cache::writeback {
namespace {

constexpr uint32_t kEntriesPerRead = 256;  // 1.1 MiB per ring read
constexpr size_t kAlign = 4096;            // O_DIRECT buffers

struct LiveRecord {
  RecordHeader header;
  std::vector<std::byte> data;
};

// A block rebuilt from its records: the bytes they wrote and which sectors.
struct BlockImage {
  blockdev::AlignedBytes bytes = blockdev::allocate_aligned(kBlockBytes, kAlign);
  uint8_t sectors = 0;  // bit i: sector i was written
};

struct Scan {
  std::vector<LiveRecord> live;
  std::vector<uint64_t> torn;  // sequence numbers
  uint64_t highest_seq = 0;
  uint64_t durable_through = 0;
  uint64_t stale = 0;
};

int read_superblock(blockdev::BlockDevice& tier, const PollDevices& poll,
                    std::optional<Superblock>* out) {
  auto buf = blockdev::allocate_aligned(2 * kSectorBytes, kAlign);
  SyncIo io(poll);
  io.read(tier, buf.get(), kSuperblockOffsets[0], kSectorBytes);
  io.read(tier, buf.get() + kSectorBytes, kSuperblockOffsets[1], kSectorBytes);
  if (const int rc = io.wait(); rc != 0) return rc;
  for (int i = 0; i < 2; ++i) {
    auto sb = decode_superblock(std::span<const std::byte, kSectorBytes>(
        buf.get() + i * kSectorBytes, kSectorBytes));
    if (sb && (!*out || sb->generation > (*out)->generation)) *out = sb;
  }
  return 0;
}

int scan_ring(blockdev::BlockDevice& tier, const Superblock& sb, const PollDevices& poll,
              Scan* scan) {
  const TierLayout layout = TierLayout::for_entries(sb.entry_count);
  auto buf = blockdev::allocate_aligned(size_t{kEntriesPerRead} * kEntryBytes, kAlign);
  if (!buf) return -ENOMEM;
  for (uint32_t first = 0; first < sb.entry_count; first += kEntriesPerRead) {
    const uint32_t n = std::min(kEntriesPerRead, sb.entry_count - first);
    SyncIo io(poll);
    io.read(tier, buf.get(), layout.ring_offset + uint64_t{first} * kEntryBytes, n * kEntryBytes);
    if (const int rc = io.wait(); rc != 0) return rc;
    for (uint32_t i = 0; i < n; ++i) {
      std::span<const std::byte> entry(buf.get() + size_t{i} * kEntryBytes, kEntryBytes);
      auto h = decode_record_header(entry.first<kSectorBytes>());
      if (!h) continue;  // never written, or garbage
      if (h->volume_id != sb.volume_id || (h->seq - 1) % sb.entry_count != first + i) {
        ++scan->stale;
        continue;
      }
      scan->highest_seq = std::max(scan->highest_seq, h->seq);
      scan->durable_through = std::max(scan->durable_through, h->durable_through);
      if (h->seq <= sb.watermark) continue;  // destaged before the last superblock
      if (!record_data_intact(*h, entry)) {
        scan->torn.push_back(h->seq);
        continue;
      }
      const auto* data = entry.data() + kSectorBytes;
      scan->live.push_back(LiveRecord{*h, std::vector<std::byte>(data, data + h->length)});
    }
  }
  return 0;
}

// Writes the records' bytes to the datastore, later sequence numbers over
// earlier ones, then flushes it.
int apply(blockdev::BlockDevice& datastore, std::vector<LiveRecord>& live, const PollDevices& poll,
          RecoveryReport* report) {
  std::sort(live.begin(), live.end(),
            [](const LiveRecord& a, const LiveRecord& b) { return a.header.seq < b.header.seq; });
  std::map<uint64_t, BlockImage> blocks;
  for (const LiveRecord& r : live) {
    BlockImage& img = blocks[r.header.block];
    if (!img.bytes) return -ENOMEM;
    std::memcpy(img.bytes.get() + r.header.offset, r.data.data(), r.header.length);
    for (uint32_t s = r.header.offset / kSectorBytes;
         s < (r.header.offset + r.header.length) / kSectorBytes; ++s) {
      img.sectors |= static_cast<uint8_t>(1U << s);
    }
    ++report->records_applied;
    report->bytes_applied += r.header.length;
  }
  SyncIo io(poll);
  for (auto& [block, img] : blocks) {
    for (uint32_t s = 0; s < kBlockBytes / kSectorBytes;) {
      if ((img.sectors & (1U << s)) == 0) {
        ++s;
        continue;
      }
      uint32_t end = s;
      while (end < kBlockBytes / kSectorBytes && (img.sectors & (1U << end)) != 0) ++end;
      io.write(datastore, img.bytes.get() + s * kSectorBytes,
               block * kBlockBytes + s * kSectorBytes, (end - s) * kSectorBytes);
      s = end;
    }
  }
  if (const int rc = io.wait(); rc != 0) return rc;
  report->blocks_applied = blocks.size();
  io.flush(datastore);
  return io.wait();
}

// Writes `sb` to the copy its generation selects and flushes the tier.
int write_superblock(blockdev::BlockDevice& tier, const Superblock& sb, const PollDevices& poll) {
  auto buf = blockdev::allocate_aligned(kSectorBytes, kAlign);
  encode_superblock(sb, std::span<std::byte, kSectorBytes>(buf.get(), kSectorBytes));
  SyncIo io(poll);
  io.write(tier, buf.get(), kSuperblockOffsets[sb.generation % 2], kSectorBytes);
  if (const int rc = io.wait(); rc != 0) return rc;
  io.flush(tier);
  return io.wait();
}

}  // namespace

int recover_journal(blockdev::BlockDevice& tier, blockdev::BlockDevice& datastore,
                    uint32_t entry_count, uint64_t volume_id, Ownership* ownership,
                    const PollDevices& poll, RecoveryReport* report, std::string* error) {
  *report = RecoveryReport{};
  std::optional<Superblock> sb;
  if (const int rc = read_superblock(tier, poll, &sb); rc != 0) return rc;
  uint64_t lease_epoch = 0;
  bool released = true;
  if (ownership != nullptr) {
    if (const int rc = ownership->read(&lease_epoch, &released, error); rc != 0) return rc;
  }
  Superblock next;
  next.entry_count = entry_count;
  next.volume_id = volume_id;
  if (!sb) {
    report->formatted = true;
  } else {
    if (sb->volume_id != volume_id) {
      *error = "the tier's journal belongs to volume " + std::to_string(sb->volume_id) +
               ", not " + std::to_string(volume_id);
      return -EINVAL;
    }
    next.epoch = sb->epoch;
    const bool fenced = ownership != nullptr && sb->epoch < lease_epoch;
    if (ownership != nullptr && sb->epoch > lease_epoch) {
      *error = "the tier's journal is of epoch " + std::to_string(sb->epoch) +
               " but the lease record holds epoch " + std::to_string(lease_epoch) +
               ": the lease record was replaced or belongs to another volume";
      return -ESTALE;
    }
    report->watermark_before = sb->watermark;
    Scan scan;
    if (const int rc = scan_ring(tier, *sb, poll, &scan); rc != 0) return rc;
    if (fenced) {
      // A peer took this epoch over: it destaged every acknowledged record, and
      // newer writes may have reached the datastore since. Torn or not, none
      // of these records may be applied.
      report->fenced_discarded = scan.live.size() + scan.torn.size();
      report->fenced_epoch = sb->epoch;
    } else {
      for (uint64_t seq : scan.torn) {
        if (seq <= scan.durable_through) {
          *error = "journal record " + std::to_string(seq) +
                   " is damaged although it was flushed (durable through " +
                   std::to_string(scan.durable_through) + "): an acknowledged write is lost";
          return -EIO;
        }
      }
      report->torn_ignored = scan.torn.size();
      if (const int rc = apply(datastore, scan.live, poll, report); rc != 0) return rc;
    }
    report->stale_ignored = scan.stale;
    next.generation = sb->generation;
    next.watermark = std::max(sb->watermark, scan.highest_seq);
  }
  if (ownership != nullptr) {
    const uint64_t journal_epoch = sb ? sb->epoch : UINT64_MAX;  // a fresh tier holds none
    if (const int rc = ownership->acquire(lease_epoch, journal_epoch, &next.epoch, error); rc != 0) {
      return rc;
    }
  }
  ++next.generation;
  if (const int rc = write_superblock(tier, next, poll); rc != 0) return rc;
  report->next_seq = next.watermark + 1;
  report->generation = next.generation;
  report->epoch = next.epoch;
  return 0;
}

}  // namespace tierwise::cache::writeback
